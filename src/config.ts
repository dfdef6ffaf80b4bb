import { availableParallelism } from 'node:os';
import { type Cidr, parseCidr } from './core/cidr.ts';
import {
  type DirectSettings,
  directSettings,
  type EnvSettings,
  envSchema,
  FORMATS,
  shapedSettings,
} from './core/config-schema.ts';
import {
  type AbuseSettings,
  type BillingSettings,
  ConfigError,
  type Env,
  readEnv,
  Type,
  type WebhookSettings,
} from './core/settings.ts';

export { ConfigError };

/** PORT → port, FAILED_KEY_WINDOW_SECONDS → failedKeyWindowSeconds. */
type CamelCase<Name extends string> = Name extends `${infer Word}_${infer Rest}`
  ? `${Lowercase<Word>}${Capitalize<CamelCase<Rest>>}`
  : Lowercase<Name>;

const camelCase = (name: string) =>
  name.toLowerCase().replace(/_(.)/g, (_, letter: string) => letter.toUpperCase());

/** The direct settings as fields: every one present (undefined when unset), lists read-only. */
type DirectFields = {
  // Extract<…> rather than keyof alone: the fields are required, holding undefined when unset.
  [Name in Extract<keyof DirectSettings, string> as CamelCase<Name>]: Field<DirectSettings[Name]>;
};
type Field<Value> = Value extends readonly (infer Item)[] ? readonly Item[] : Value;

/**
 * Every setting Snip reads, parsed and validated once (docs/api.md §6). Only main.ts and cli.ts pass
 * the environment in. Each field of DirectFields is the variable of its name in config-schema.ts,
 * where its meaning, default and limits are; the fields below are built from the other variables.
 */
export interface Config extends DirectFields {
  /** BASE_URL without a trailing slash (short URLs are BASE_URL + "/" + code). */
  baseUrl: URL;
  /** DATABASE_URL was not set: the store is the embedded default, ./data/snip.db. */
  storeIsDefault: boolean;
  /** false, or the number of proxy hops in front of Snip whose X-Forwarded-For is believed. */
  trustProxy: false | number;
  /** Client networks whose clicks count nothing at all, as address/prefix. */
  trackingExclude: readonly Cidr[];
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
  /** PROCESSES: how many processes `snip serve` runs on its port (`auto` read as the cores). */
  processes: number;
}

function directFields(settings: EnvSettings): DirectFields {
  const entries = Object.keys(directSettings.properties).map((name) => {
    const value: unknown = settings[name as keyof DirectSettings];
    return [camelCase(name), Array.isArray(value) ? Object.freeze(value) : value];
  });
  return Object.fromEntries(entries) as DirectFields;
}

function baseUrl(settings: EnvSettings): URL {
  const url = new URL(settings.BASE_URL ?? `http://localhost:${settings.PORT}`);
  // Short URLs are BASE_URL + "/" + code: keep any path prefix, never a trailing slash.
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

function mail({ SMTP_URL: url, MAIL_FROM: from }: EnvSettings): Config['mail'] {
  if (!url && !from) return undefined;
  if (!url) throw new ConfigError('SMTP_URL must be set when MAIL_FROM is set');
  if (!from) throw new ConfigError('MAIL_FROM must be set when SMTP_URL is set');
  return { url, from };
}

function emailVerification(settings: EnvSettings, withMail: boolean): Config['emailVerification'] {
  const mode = settings.EMAIL_VERIFICATION ?? (withMail ? 'required' : 'off');
  if (mode === 'required' && !withMail) {
    throw new ConfigError('EMAIL_VERIFICATION=required needs mail: set SMTP_URL and MAIL_FROM');
  }
  return mode;
}

function oidc(settings: EnvSettings): Config['oidc'] {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = settings;
  if (!issuer && !clientId && !clientSecret) return undefined;
  if (!issuer || !clientId || !clientSecret) {
    throw new ConfigError(
      'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set together, or none of them',
    );
  }
  return { issuer, clientId, clientSecret, name: settings.OIDC_NAME };
}

function billing(settings: EnvSettings): BillingSettings {
  const {
    UPGRADE_URL: upgradeUrl,
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
  } = settings;
  if (!secretKey && !webhookSecret) return { upgradeUrl, stripe: undefined };
  if (!secretKey || !webhookSecret)
    throw new ConfigError('STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set together');
  return { upgradeUrl, stripe: { secretKey, webhookSecret, apiBase: new URL(settings.STRIPE_API_BASE) } };
}

const processesOnly = Type.Object({ PROCESSES: shapedSettings.properties.PROCESSES });

/**
 * A count of processes as PROCESSES or `snip serve --processes` words it: 1 to 256, or `auto`, one
 * per core this process may use. A bad value throws ConfigError with the variable's own wording.
 */
export function readProcesses(text: string, name = 'PROCESSES'): number {
  try {
    return processes(readEnv(processesOnly, { PROCESSES: text }, FORMATS).PROCESSES);
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(error.message.replace('PROCESSES', name));
    throw error;
  }
}

const processes = (value: EnvSettings['PROCESSES']): number =>
  value === 'auto' ? availableParallelism() : value;

export function loadConfig(env: Env): Config {
  const settings = readEnv(envSchema, env, FORMATS);
  const mailSettings = mail(settings);
  return Object.freeze({
    ...directFields(settings),
    baseUrl: baseUrl(settings),
    storeIsDefault: !env.DATABASE_URL?.trim(),
    // 0 hops is no proxy: the same as false to everything that asks.
    trustProxy: settings.TRUST_PROXY || false,
    trackingExclude: Object.freeze(settings.TRACKING_EXCLUDE.flatMap((text) => parseCidr(text) ?? [])),
    mail: mailSettings,
    emailVerification: emailVerification(settings, mailSettings !== undefined),
    oidc: oidc(settings),
    abuse: {
      blocklistUrls: Object.freeze(settings.BLOCKLIST_URLS),
      blocklistRefreshHours: settings.BLOCKLIST_REFRESH_HOURS,
      reportEmail: settings.REPORT_EMAIL,
    },
    webhooks: {
      retryBaseMs: settings.WEBHOOK_RETRY_BASE_MS,
      outboxMax: settings.WEBHOOK_OUTBOX_MAX,
      amqpUrl: settings.EVENTS_AMQP_URL,
    },
    billing: billing(settings),
    processes: processes(settings.PROCESSES),
  });
}
