import type { Static, TLiteral, TLiteralValue, TSchema, TUnion } from '@sinclair/typebox';
import { parseCidr } from './cidr.ts';
import { PLAN_NAME_PATTERN } from './plans.ts';
import { type Formats, Type } from './settings.ts';
import { DEFAULT_SOCIAL_DOMAINS } from './social.ts';
import { formatTimestamp } from './timestamp.ts';

/**
 * Every environment variable Snip reads (docs/configuration.md), once, as a TypeBox schema: its
 * type, default, limits and meaning. settings.ts reads the environment through it; config.ts turns
 * the result into the Config the program gets. `expected` words an error where the type alone
 * cannot; a list's `separator` is the pattern its items are split on.
 */

/** The `format`s of the schema's strings. */
export const FORMATS: Formats = {
  'time-zone': (zone) => {
    // The default needs no check: building a zone's formatter loads ICU's zone data (~50 ms of a
    // start), which the first answer that carries a timestamp pays instead (docs/adr/053).
    if (zone === 'UTC') return true;
    try {
      formatTimestamp(new Date(0), zone);
      return true;
    } catch {
      return false;
    }
  },
  cidr: (text) => parseCidr(text) !== undefined,
  'base-url': (text) => {
    const url = URL.parse(text);
    return url !== null && /^https?:$/.test(url.protocol) && !url.search && !url.hash && !url.username;
  },
  'http-origin': (text) => {
    const url = URL.parse(text);
    return url !== null && /^https?:$/.test(url.protocol) && url.pathname.replace(/\/$/, '') === '';
  },
};

const whole = (fallback: number, minimum: number, maximum: number, description: string) =>
  Type.Integer({ default: fallback, minimum, maximum, description });

const count = (fallback: number, description: string) => whole(fallback, 1, 1_000_000, description);

/** One of the values; with no fallback, config.ts picks the default. */
const oneOf = <const Values extends readonly TLiteralValue[]>(
  values: Values,
  fallback: Values[number] | undefined,
  description: string,
) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    fallback === undefined ? { description } : { default: fallback, description },
  ) as TUnion<{ -readonly [I in keyof Values]: TLiteral<Values[I]> }>;

const flag = (fallback: boolean, description: string) => Type.Boolean({ default: fallback, description });

const text = (fallback: string, description: string) => Type.String({ default: fallback, description });

/** A variable with no value unless set, and a pattern (worded by `expected`) when it has one. */
const optionalText = (description: string, pattern?: RegExp, expected?: string) =>
  Type.Optional(Type.String(pattern ? { pattern: pattern.source, expected, description } : { description }));

/** A list: the items of the text between separators (a pattern), each trimmed, blanks dropped. */
const list = <Item extends TSchema>(
  item: Item,
  separator: string,
  fallback: string[],
  expected: string,
  description: string,
) => Type.Array(item, { default: fallback, separator, expected, description });

const HTTP_URL = /^https?:\/\/[^/?#]+/;

/** Variables whose value is a field of Config as it is, under its camelCase name (PORT → port). */
export const directSettings = Type.Object({
  PORT: whole(8080, 0, 65535, 'port to listen on'),
  HOST: text('127.0.0.1', 'address to listen on'),
  DATABASE_URL: Type.String({
    default: 'sqlite:./data/snip.db',
    pattern: /^(sqlite:.+|postgres(ql)?:\/\/)/.source,
    expected: 'sqlite:<path> or postgres://…',
    description: 'the store: sqlite:<path> or postgres://user:pass@host:5432/db',
  }),
  REDIS_URL: optionalText('Redis shared by the instances', /^rediss?:\/\//, 'redis://… or rediss://…'),
  REDIS_PREFIX: text('snip:', 'prefix of Redis keys and channels, so deployments can share one Redis'),
  DEMO_API_KEY: text('demo', 'the public demo key'),
  ALLOW_PRIVATE_TARGETS: flag(false, 'allow loopback, private and other non-public target addresses'),
  REDIRECT_STATUS: oneOf([301, 302, 307, 308], 302, 'status of a redirect'),
  HTTP_STATUS_MODE: oneOf(['rest', 'always-200'], 'rest', 'statuses of /create'),
  TIMESTAMP_TZ: Type.String({
    default: 'UTC',
    format: 'time-zone',
    expected: 'an IANA time zone',
    description: 'time zone of `timestamps`',
  }),
  SIGNUP: oneOf(['open', 'invite', 'closed'], 'open', 'who may sign up: anyone, the invited, or nobody'),
  SIGNUP_BLOCK_DISPOSABLE: flag(true, 'refuse sign-ups at disposable email domains'),
  SIGNUP_PLAN: Type.String({
    default: 'free',
    pattern: PLAN_NAME_PATTERN.source,
    expected: 'a plan name (a-z, 0-9, "-", "_")',
    description: 'the plan of a self-service sign-up; it must exist when sign-up is open',
  }),
  SESSION_TTL_HOURS: whole(168, 1, 8760, 'how long a dashboard session lasts after sign-in'),
  SIGNIN_ACCOUNT_LIMIT: count(10, 'failed sign-ins allowed per account per window'),
  SIGNIN_ADDRESS_LIMIT: count(30, 'failed sign-ins allowed per client address per window'),
  SIGNIN_WINDOW_SECONDS: whole(900, 1, 86_400, 'window of the sign-in limits'),
  SOCIAL_DOMAINS: list(
    Type.String(),
    ',',
    [...DEFAULT_SOCIAL_DOMAINS],
    'domains separated by commas',
    'domains of social networks (docs/api.md §2.6)',
  ),
  FAILED_KEY_LIMIT: count(30, 'missing or wrong API keys allowed per client address per window'),
  FAILED_KEY_WINDOW_SECONDS: whole(600, 1, 86_400, 'window of the failed-key limit'),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'log level'),
  NOT_FOUND_LIMIT: count(60, 'unknown short codes an address may request per minute before 429'),
  LINK_CACHE_SIZE: whole(100_000, 1, 10_000_000, 'hot links kept in memory'),
  CLICK_FLUSH_MS: whole(1000, 10, 60_000, 'how often buffered clicks are written to the store'),
  LINK_CHECK_HOURS: whole(24, 1, 8760, "how often every live link's targets are checked again"),
  LINK_CHECKS_PER_MINUTE: whole(
    60,
    0,
    1_000_000,
    'link checks per minute per instance at most; 0: none scheduled',
  ),
  LINK_CACHE_TTL_SECONDS: whole(30, 1, 86_400, 'how long a cached link is trusted before it is read again'),
  STORE_TIMEOUT_MS: whole(2000, 50, 60_000, 'deadline of every store and Redis call a request waits on'),
  MAX_CONNECTIONS: count(10_000, 'open sockets the server accepts at most'),
  DEMO_RATE_LIMIT: count(30, 'demo requests an address may make per window'),
  DEMO_RATE_WINDOW_SECONDS: whole(60, 1, 86_400, 'window of the demo rate limit'),
  SSE_HEARTBEAT_SECONDS: whole(
    15,
    1,
    3600,
    'seconds between heartbeats on event streams (the demo log, live clicks)',
  ),
  SSE_MAX_SECONDS: whole(
    600,
    1,
    86_400,
    'how long an event stream (the demo log, live clicks) lasts before it is ended',
  ),
  TRACKING: oneOf(['full', 'minimal', 'off'], 'full', 'what a click records'),
  HONOR_DNT: flag(true, 'a click with Sec-GPC: 1 or DNT: 1 is recorded as minimal'),
  ANALYTICS_RETENTION_DAYS: whole(90, 1, 3650, 'how long raw click events are kept'),
  CONVERSION_WINDOW_DAYS: whole(90, 1, 3650, 'how long a click id can be converted (docs/api.md §20)'),
  DOMAINS_PENDING_MAX: whole(5, 1, 1000, 'unverified domains a workspace may hold at once'),
});

/** Variables Config holds in another shape (a URL, a group, a default that depends on another). */
export const shapedSettings = Type.Object({
  BASE_URL: Type.Optional(
    Type.String({
      format: 'base-url',
      expected: 'an absolute http(s) URL without query, fragment or credentials',
      description: 'public address used in short URLs; http://localhost:$PORT when unset',
    }),
  ),
  TRUST_PROXY: Type.Union([Type.Literal(false), Type.Integer({ minimum: 0, maximum: 10 })], {
    default: false,
    expected: 'false or a hop count from 1 to 10',
    description: 'false (0), or the proxy hops in front of Snip whose X-Forwarded-For is believed',
  }),
  TRACKING_EXCLUDE: list(
    Type.String({ format: 'cidr' }),
    ',',
    [],
    'a comma-separated list of CIDRs (1.2.3.0/24, 2001:db8::/32)',
    'client networks whose clicks count nothing at all; a bare address is its own /32 or /128',
  ),
  SMTP_URL: optionalText('SMTP server of mail', /^smtps?:\/\/[^/?#]+/, 'smtp://host[:port] or smtps://…'),
  MAIL_FROM: optionalText(
    'sender of mail',
    /^[^\s@<>]+@[^\s@<>]+$|^[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>$/,
    'an address (snip@example.com or Snip <snip@example.com>)',
  ),
  EMAIL_VERIFICATION: Type.Optional(
    oneOf(['required', 'off'], undefined, 'new users confirm their email; `required` by default with mail'),
  ),
  OIDC_ISSUER: optionalText('OpenID provider of "Sign in with …"', HTTP_URL, 'an http(s) URL'),
  OIDC_CLIENT_ID: optionalText("Snip's client id at the OpenID provider"),
  OIDC_CLIENT_SECRET: optionalText("Snip's client secret at the OpenID provider"),
  OIDC_NAME: text('your identity provider', "the OpenID provider's name on the sign-in button"),
  BLOCKLIST_URLS: list(
    Type.String({ pattern: HTTP_URL.source }),
    '[\\s,]+',
    [],
    'http(s) URLs separated by commas',
    'blocklists fetched soon after start and whenever older than BLOCKLIST_REFRESH_HOURS',
  ),
  BLOCKLIST_REFRESH_HOURS: whole(24, 1, 8760, 'how old a blocklist may get before it is fetched again'),
  REPORT_EMAIL: optionalText("where visitors' reports are mailed", /^[^\s@]+@[^\s@]+$/, 'an email address'),
  WEBHOOK_RETRY_BASE_MS: whole(5000, 1, 3_600_000, "a failed webhook delivery's first retry delay"),
  WEBHOOK_OUTBOX_MAX: whole(100_000, 1, 100_000_000, 'waiting deliveries past which clicks are dropped'),
  EVENTS_AMQP_URL: optionalText(
    'RabbitMQ that every event is published to',
    /^amqps?:\/\/[^/?#]+/,
    'an amqp:// or amqps:// URL',
  ),
  UPGRADE_URL: optionalText(
    'where owners ask for another plan without a payment provider',
    /^(https?:\/\/[^/?#]+|mailto:[^\s]+)/,
    'an http(s):// or mailto: URL',
  ),
  PROCESSES: Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 1, maximum: 256 })], {
    default: 1,
    expected: 'a number of processes from 1 to 256, or auto',
    description:
      'processes `snip serve` runs on one port (auto: one per core); more than 1 needs PostgreSQL and Redis',
  }),
  STRIPE_SECRET_KEY: optionalText("Snip's Stripe secret key"),
  STRIPE_WEBHOOK_SECRET: optionalText('the whsec_… secret Stripe signs webhooks with'),
  STRIPE_API_BASE: Type.String({
    default: 'https://api.stripe.com',
    format: 'http-origin',
    expected: 'an http(s) origin such as https://api.stripe.com',
    description: 'where Stripe requests are sent',
  }),
});

export const envSchema = Type.Object({ ...directSettings.properties, ...shapedSettings.properties });

export type DirectSettings = Static<typeof directSettings>;
export type EnvSettings = Static<typeof envSchema>;
