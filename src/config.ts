import type { Tracking } from './core/analytics/model.ts';
import { type Cidr, parseCidr } from './core/cidr.ts';
import { PLAN_NAME_PATTERN } from './core/plans.ts';
import {
  type AbuseSettings,
  abuse,
  type BillingSettings,
  billing,
  boolean,
  ConfigError,
  type Env,
  integer,
  oneOf,
  type WebhookSettings,
  webhooks,
} from './core/settings.ts';
import { DEFAULT_SOCIAL_DOMAINS } from './core/social.ts';
import { formatTimestamp } from './core/timestamp.ts';

export { ConfigError };

/** Every setting Snip reads, parsed and validated once (docs/api.md §6). Only main.ts and cli.ts pass the environment in. */
export interface Config {
  port: number;
  host: string;
  baseUrl: URL;
  databaseUrl: string;
  /** DATABASE_URL was not set: the store is the embedded default, ./data/snip.db. */
  storeIsDefault: boolean;
  redisUrl: string | undefined;
  /** Prefix of Redis keys and channels, so deployments can share one Redis. */
  redisPrefix: string;
  demoApiKey: string;
  allowPrivateTargets: boolean;
  redirectStatus: 301 | 302 | 307 | 308;
  httpStatusMode: 'rest' | 'always-200';
  timestampTz: string;
  /** SIGNUP: anyone may sign up, only the invited (through their invitation link), or nobody. */
  signup: 'open' | 'invite' | 'closed';
  /** SIGNUP_BLOCK_DISPOSABLE: refuse sign-ups at disposable email domains. */
  signupBlockDisposable: boolean;
  socialDomains: readonly string[];
  /** false, or the number of proxy hops in front of Snip whose X-Forwarded-For is believed. */
  trustProxy: false | number;
  /** Failed-key limiter: failures allowed per address per window (docs/api.md §2.5). */
  failedKeyLimit: number;
  failedKeyWindowSeconds: number;
  logLevel: string;
  /** Demo requests an address may make per window (docs/api.md §3). */
  demoRateLimit: number;
  demoRateWindowSeconds: number;
  /** Seconds between heartbeats on the demo log's event stream. */
  sseHeartbeatSeconds: number;
  /** How long a demo log stream lasts before it is ended (the browser reconnects by itself). */
  sseMaxSeconds: number;
  /** Unknown short codes an address may request per minute before it gets 429. */
  notFoundLimit: number;
  /** Hot links kept in memory. */
  linkCacheSize: number;
  /** How long a cached link is trusted before it is read again (a change missed during a Redis outage). */
  linkCacheTtlSeconds: number;
  /** Deadline of every store and Redis operation a request waits on; past it the answer is 503. */
  storeTimeoutMs: number;
  /** Open sockets the server accepts at most. */
  maxConnections: number;
  /** How often buffered clicks are written to the store. */
  clickFlushMs: number;
  /** The plan a self-service sign-up gets; it must exist when sign-up is open. */
  signupPlan: string;
  /** How long a dashboard session lasts after sign-in. */
  sessionTtlHours: number;
  /** Failed sign-ins allowed per account and per client address within the window. */
  signinAccountLimit: number;
  signinAddressLimit: number;
  signinWindowSeconds: number;
  /** What a click records (docs/api.md §9.2): full, minimal (counts and days), off (the total only). */
  tracking: Tracking;
  /** Sec-GPC: 1 or DNT: 1 make a click minimal, unless HONOR_DNT=false. */
  honorDnt: boolean;
  /** Client networks whose clicks count nothing at all, as address/prefix. */
  trackingExclude: readonly Cidr[];
  /** How long raw click events are kept; the per-day aggregates stay for the link's life. */
  analyticsRetentionDays: number;
  /** SMTP_URL and MAIL_FROM (docs/api.md §11): mail is sent only with both. */
  mail: { url: string; from: string } | undefined;
  /** EMAIL_VERIFICATION: `required` (the default with mail) or `off` (the default without). */
  emailVerification: 'required' | 'off';
  /** OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, OIDC_NAME: "Sign in with …" when set. */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | undefined;
  /** BLOCKLIST_URLS, BLOCKLIST_REFRESH_HOURS, REPORT_EMAIL (docs/api.md §13). */
  abuse: AbuseSettings;
  /** WEBHOOK_RETRY_BASE_MS, WEBHOOK_OUTBOX_MAX, EVENTS_AMQP_URL (docs/api.md §14). */
  webhooks: WebhookSettings;
  /** UPGRADE_URL, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE (docs/api.md §17). */
  billing: BillingSettings;
}

function baseUrl(env: Env, port: number): URL {
  const raw = env.BASE_URL?.trim() || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`BASE_URL must be an absolute URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`BASE_URL must be http or https, got "${raw}"`);
  }
  if (url.search || url.hash || url.username) {
    throw new ConfigError(`BASE_URL must not carry a query, fragment or credentials, got "${raw}"`);
  }
  // Short URLs are BASE_URL + "/" + code: keep any path prefix, never a trailing slash.
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL?.trim() || 'sqlite:./data/snip.db';
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\//.test(raw)) return raw;
  throw new ConfigError(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${raw}"`);
}

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return undefined;
  if (!/^rediss?:\/\//.test(raw))
    throw new ConfigError(`REDIS_URL must be redis://… or rediss://…, got "${raw}"`);
  return raw;
}

function timeZone(env: Env): string {
  const raw = env.TIMESTAMP_TZ?.trim() || 'UTC';
  try {
    formatTimestamp(new Date(0), raw);
  } catch {
    throw new ConfigError(`TIMESTAMP_TZ must be an IANA time zone, got "${raw}"`);
  }
  return raw;
}

function trustProxy(env: Env): false | number {
  const raw = env.TRUST_PROXY?.trim().toLowerCase();
  if (raw === undefined || raw === '' || raw === 'false' || raw === '0') return false;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  throw new ConfigError(`TRUST_PROXY must be false or a hop count from 1 to 10, got "${raw}"`);
}

function planName(env: Env): string {
  const raw = env.SIGNUP_PLAN?.trim() || 'free';
  if (!PLAN_NAME_PATTERN.test(raw)) {
    throw new ConfigError(`SIGNUP_PLAN must be a plan name (a-z, 0-9, "-", "_"), got "${raw}"`);
  }
  return raw;
}

/** TRACKING_EXCLUDE: comma-separated CIDRs (a bare address is its own /32 or /128). */
function cidrs(env: Env, name: string): Cidr[] {
  const raw = env[name]?.trim();
  if (!raw) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const cidr = parseCidr(part);
      if (cidr) return cidr;
      throw new ConfigError(
        `${name} must be a comma-separated list of CIDRs (1.2.3.0/24, 2001:db8::/32), got "${part}"`,
      );
    });
}

function mail(env: Env): Config['mail'] {
  const url = env.SMTP_URL?.trim();
  const from = env.MAIL_FROM?.trim();
  if (!url && !from) return undefined;
  if (!url || !/^smtps?:\/\/[^/?#]+/.test(url)) {
    throw new ConfigError('SMTP_URL must be smtp://host[:port] or smtps://… when MAIL_FROM is set');
  }
  if (!from || !/^[^\s@<>]+@[^\s@<>]+$|^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/.test(from)) {
    throw new ConfigError(
      'MAIL_FROM must be an address (snip@example.com or Snip <snip@example.com>) when SMTP_URL is set',
    );
  }
  return { url, from };
}

function emailVerification(env: Env, withMail: boolean): Config['emailVerification'] {
  const mode = oneOf(env, 'EMAIL_VERIFICATION', ['required', 'off'], withMail ? 'required' : 'off');
  if (mode === 'required' && !withMail) {
    throw new ConfigError('EMAIL_VERIFICATION=required needs mail: set SMTP_URL and MAIL_FROM');
  }
  return mode;
}

function oidc(env: Env): Config['oidc'] {
  const issuer = env.OIDC_ISSUER?.trim();
  const clientId = env.OIDC_CLIENT_ID?.trim();
  const clientSecret = env.OIDC_CLIENT_SECRET?.trim();
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new ConfigError(
      'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together, or none of them',
    );
  }
  if (!/^https?:\/\/[^/?#]+/.test(issuer))
    throw new ConfigError(`OIDC_ISSUER must be an http(s) URL, got "${issuer}"`);
  return { issuer, clientId, clientSecret, name: env.OIDC_NAME?.trim() || 'your identity provider' };
}

export function loadConfig(env: Env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const social = env.SOCIAL_DOMAINS?.trim();
  const demoApiKey = env.DEMO_API_KEY?.trim() || 'demo';
  const mailSettings = mail(env);
  return Object.freeze({
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    baseUrl: baseUrl(env, port),
    databaseUrl: databaseUrl(env),
    storeIsDefault: !env.DATABASE_URL?.trim(),
    redisUrl: redisUrl(env),
    redisPrefix: env.REDIS_PREFIX?.trim() || 'snip:',
    demoApiKey,
    allowPrivateTargets: boolean(env, 'ALLOW_PRIVATE_TARGETS', false),
    redirectStatus: Number(oneOf(env, 'REDIRECT_STATUS', ['301', '302', '307', '308'], '302')) as
      | 301
      | 302
      | 307
      | 308,
    httpStatusMode: oneOf(env, 'HTTP_STATUS_MODE', ['rest', 'always-200'], 'rest'),
    timestampTz: timeZone(env),
    signup: oneOf(env, 'SIGNUP', ['open', 'invite', 'closed'], 'open'),
    signupBlockDisposable: boolean(env, 'SIGNUP_BLOCK_DISPOSABLE', true),
    socialDomains: Object.freeze(
      social
        ? social
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean)
        : [...DEFAULT_SOCIAL_DOMAINS],
    ),
    trustProxy: trustProxy(env),
    failedKeyLimit: integer(env, 'FAILED_KEY_LIMIT', 30, 1, 1_000_000),
    failedKeyWindowSeconds: integer(env, 'FAILED_KEY_WINDOW_SECONDS', 600, 1, 86_400),
    demoRateLimit: integer(env, 'DEMO_RATE_LIMIT', 30, 1, 1_000_000),
    demoRateWindowSeconds: integer(env, 'DEMO_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    sseHeartbeatSeconds: integer(env, 'SSE_HEARTBEAT_SECONDS', 15, 1, 3600),
    sseMaxSeconds: integer(env, 'SSE_MAX_SECONDS', 600, 1, 86_400),
    notFoundLimit: integer(env, 'NOT_FOUND_LIMIT', 60, 1, 1_000_000),
    linkCacheSize: integer(env, 'LINK_CACHE_SIZE', 100_000, 1, 10_000_000),
    linkCacheTtlSeconds: integer(env, 'LINK_CACHE_TTL_SECONDS', 30, 1, 86_400),
    storeTimeoutMs: integer(env, 'STORE_TIMEOUT_MS', 2000, 50, 60_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    clickFlushMs: integer(env, 'CLICK_FLUSH_MS', 1000, 10, 60_000),
    signupPlan: planName(env),
    sessionTtlHours: integer(env, 'SESSION_TTL_HOURS', 168, 1, 8760),
    signinAccountLimit: integer(env, 'SIGNIN_ACCOUNT_LIMIT', 10, 1, 1_000_000),
    signinAddressLimit: integer(env, 'SIGNIN_ADDRESS_LIMIT', 30, 1, 1_000_000),
    signinWindowSeconds: integer(env, 'SIGNIN_WINDOW_SECONDS', 900, 1, 86_400),
    tracking: oneOf(env, 'TRACKING', ['full', 'minimal', 'off'], 'full'),
    honorDnt: boolean(env, 'HONOR_DNT', true),
    trackingExclude: Object.freeze(cidrs(env, 'TRACKING_EXCLUDE')),
    analyticsRetentionDays: integer(env, 'ANALYTICS_RETENTION_DAYS', 90, 1, 3650),
    mail: mailSettings,
    emailVerification: emailVerification(env, mailSettings !== undefined),
    oidc: oidc(env),
    abuse: abuse(env),
    webhooks: webhooks(env),
    billing: billing(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  });
}
