/**
 * Reading settings from the environment (docs/api.md §6): the checked primitives every group of
 * settings is read with, and the groups that live beside their features' own words.
 */

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Readonly<Record<string, string | undefined>>;

export function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

export function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes', 'on'].includes(raw)) return true;
  if (['false', '0', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** BLOCKLIST_URLS, BLOCKLIST_REFRESH_HOURS, REPORT_EMAIL (docs/api.md §13). */
export interface AbuseSettings {
  blocklistUrls: readonly string[];
  blocklistRefreshHours: number;
  reportEmail: string | undefined;
}

export function abuse(env: Env): AbuseSettings {
  const urls = (env.BLOCKLIST_URLS ?? '').split(/[\s,]+/).filter(Boolean);
  const bad = urls.find((url) => !/^https?:\/\/[^/?#]+/.test(url));
  if (bad) throw new ConfigError(`BLOCKLIST_URLS must be http(s) URLs separated by commas, got "${bad}"`);
  const reportEmail = env.REPORT_EMAIL?.trim() || undefined;
  if (reportEmail && !/^[^\s@]+@[^\s@]+$/.test(reportEmail))
    throw new ConfigError(`REPORT_EMAIL must be an email address, got "${reportEmail}"`);
  const blocklistRefreshHours = integer(env, 'BLOCKLIST_REFRESH_HOURS', 24, 1, 8760);
  return { blocklistUrls: Object.freeze(urls), blocklistRefreshHours, reportEmail };
}

/** WEBHOOK_RETRY_BASE_MS, WEBHOOK_OUTBOX_MAX, EVENTS_AMQP_URL (docs/api.md §14). */
export interface WebhookSettings {
  /** The first retry's delay; each next one doubles, with jitter. */
  retryBaseMs: number;
  /** Deliveries the outbox holds at most before link.clicked events are dropped (counted). */
  outboxMax: number;
  /** The operator's event stream: every event also goes to this RabbitMQ. */
  amqpUrl: string | undefined;
}

export function webhooks(env: Env): WebhookSettings {
  const amqpUrl = env.EVENTS_AMQP_URL?.trim() || undefined;
  if (amqpUrl && !/^amqps?:\/\/[^/?#]+/.test(amqpUrl))
    throw new ConfigError('EVENTS_AMQP_URL must be an amqp:// or amqps:// URL');
  return {
    retryBaseMs: integer(env, 'WEBHOOK_RETRY_BASE_MS', 5000, 1, 3_600_000),
    outboxMax: integer(env, 'WEBHOOK_OUTBOX_MAX', 100_000, 1, 100_000_000),
    amqpUrl,
  };
}

/** Payments (docs/api.md §17): none by default (upgrades are the operator's), or Stripe. */
export interface BillingSettings {
  /** Where an owner asks the operator for another plan without a payment provider; else a mailto of MAIL_FROM. */
  upgradeUrl: string | undefined;
  stripe: { secretKey: string; webhookSecret: string; apiBase: URL } | undefined;
}

export function billing(env: Env): BillingSettings {
  const upgradeUrl = env.UPGRADE_URL?.trim() || undefined;
  if (upgradeUrl && !/^(https?:\/\/[^/?#]+|mailto:[^\s]+)/.test(upgradeUrl))
    throw new ConfigError('UPGRADE_URL must be an http(s):// or mailto: URL');
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim() || undefined;
  if (!secretKey && !webhookSecret) return { upgradeUrl, stripe: undefined };
  if (!secretKey || !webhookSecret)
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together');
  const base = env.STRIPE_API_BASE?.trim() || 'https://api.stripe.com';
  const apiBase = URL.parse(base);
  if (!apiBase || !/^https?:$/.test(apiBase.protocol) || apiBase.pathname.replace(/\/$/, '') !== '')
    throw new ConfigError('STRIPE_API_BASE must be an http(s) origin such as https://api.stripe.com');
  return { upgradeUrl, stripe: { secretKey, webhookSecret, apiBase } };
}
