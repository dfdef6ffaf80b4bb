import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { FormatRegistry, TypeGuard } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { envSchema, FORMATS } from '../../src/core/config-schema.ts';
import { readEnv } from '../../src/core/settings.ts';
import { DEFAULT_SOCIAL_DOMAINS } from '../../src/core/social.ts';

/** The environment as Config (docs/configuration.md): one schema, its defaults, conversions and refusals. */

const ROOT = resolve(import.meta.dirname, '..', '..');

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(env)}`);
}

describe('the schema of the environment', () => {
  it('is a TypeBox schema, and TypeBox accepts what is read through it', () => {
    for (const [name, check] of Object.entries(FORMATS)) FormatRegistry.Set(name, check);
    assert.ok(TypeGuard.IsObject(envSchema));
    for (const variable of Object.values(envSchema.properties)) assert.ok(TypeGuard.IsSchema(variable));
    assert.deepEqual(readEnv(envSchema, {}, FORMATS), Value.Default(envSchema, {}));
    const set = readEnv(
      envSchema,
      {
        TRUST_PROXY: '2',
        REDIRECT_STATUS: '308',
        BLOCKLIST_URLS: 'https://a.example/x https://b.example/y',
        SMTP_URL: 'smtp://mail.example:587',
        MAIL_FROM: 'Snip <snip@example.com>',
        EMAIL_VERIFICATION: 'off',
        TRACKING_EXCLUDE: '10.0.0.0/8',
      },
      FORMATS,
    );
    assert.deepEqual([...Value.Errors(envSchema, set)], []);
  });

  it('describes every variable, and docs/configuration.md lists the same ones', () => {
    const table = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
    assert.deepEqual(table.sort(), Object.keys(envSchema.properties).sort());
    for (const [name, variable] of Object.entries(envSchema.properties)) {
      assert.ok(typeof variable.description === 'string' && variable.description.length > 0, name);
    }
  });
});

describe('loadConfig', () => {
  it('gives the defaults when nothing is set, frozen', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl.href, 'http://localhost:8080/');
    assert.equal(config.databaseUrl, 'sqlite:./data/snip.db');
    assert.equal(config.storeIsDefault, true);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.redirectStatus, 302);
    assert.equal(config.trustProxy, false);
    assert.deepEqual(config.socialDomains, DEFAULT_SOCIAL_DOMAINS);
    assert.deepEqual(config.trackingExclude, []);
    assert.equal(config.mail, undefined);
    assert.equal(config.emailVerification, 'off');
    assert.equal(config.oidc, undefined);
    assert.deepEqual(config.abuse, { blocklistUrls: [], blocklistRefreshHours: 24, reportEmail: undefined });
    assert.deepEqual(config.webhooks, { retryBaseMs: 5000, outboxMax: 100_000, amqpUrl: undefined });
    assert.deepEqual(config.billing, { upgradeUrl: undefined, stripe: undefined });
    assert.equal(config.domainsPendingMax, 5);
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.socialDomains));
    assert.ok('redisUrl' in config, 'an unset variable is a field holding undefined');
  });

  it('converts text to numbers, booleans, lists and URLs, blank as unset', () => {
    const config = loadConfig({
      PORT: ' 9000 ',
      HOST: '  ',
      ALLOW_PRIVATE_TARGETS: 'Yes',
      HONOR_DNT: 'off',
      REDIRECT_STATUS: '307',
      TRUST_PROXY: '3',
      SOCIAL_DOMAINS: ' a.example , ,b.example',
      BLOCKLIST_URLS: 'https://a.example/x, https://b.example/y  https://c.example',
      TRACKING_EXCLUDE: '10.0.0.0/8, 2001:db8::1',
      DATABASE_URL: 'postgres://db.example/snip',
      DOMAINS_PENDING_MAX: '12',
    });
    assert.equal(config.domainsPendingMax, 12);
    assert.equal(config.port, 9000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.baseUrl.href, 'http://localhost:9000/');
    assert.equal(config.allowPrivateTargets, true);
    assert.equal(config.honorDnt, false);
    assert.equal(config.redirectStatus, 307);
    assert.equal(config.trustProxy, 3);
    assert.deepEqual(config.socialDomains, ['a.example', 'b.example']);
    assert.equal(config.abuse.blocklistUrls.length, 3);
    assert.deepEqual(
      config.trackingExclude.map((cidr) => cidr.prefix),
      [8, 128],
    );
    assert.equal(config.storeIsDefault, false);
    for (const off of ['false', 'FALSE', '0'])
      assert.equal(loadConfig({ TRUST_PROXY: off }).trustProxy, false);
    assert.equal(loadConfig({ BASE_URL: 'https://sn.ip/go//' }).baseUrl.href, 'https://sn.ip/go');
  });

  it('refuses each bad value with a ConfigError naming the variable', () => {
    const bad: Record<string, string>[] = [
      { PORT: '65536' },
      { PORT: '1e3' },
      { PORT: '-1' },
      { STORE_TIMEOUT_MS: '49' },
      { SSE_HEARTBEAT_SECONDS: '3601' },
      { ALLOW_PRIVATE_TARGETS: 'maybe' },
      { REDIRECT_STATUS: '303' },
      { REDIRECT_STATUS: '0302' },
      { HTTP_STATUS_MODE: 'REST' },
      { LOG_LEVEL: 'verbose' },
      { TRACKING: 'none' },
      { TIMESTAMP_TZ: 'Mars/Base' },
      { BASE_URL: 'sn.ip' },
      { BASE_URL: 'ftp://sn.ip' },
      { BASE_URL: 'https://sn.ip/?q=1' },
      { BASE_URL: 'https://user@sn.ip' },
      { DATABASE_URL: 'mysql://db' },
      { REDIS_URL: 'http://cache' },
      { TRUST_PROXY: '11' },
      { TRUST_PROXY: 'no' },
      { TRACKING_EXCLUDE: '10.0.0.0/8,10.0.0.0/33' },
      { BLOCKLIST_URLS: 'https://a.example ftp://b.example' },
      { BLOCKLIST_REFRESH_HOURS: '0' },
      { REPORT_EMAIL: 'nobody' },
      { EVENTS_AMQP_URL: 'http://mq' },
      { WEBHOOK_OUTBOX_MAX: '100000001' },
      { DOMAINS_PENDING_MAX: '0' },
      { UPGRADE_URL: 'ftp://x' },
      { EMAIL_VERIFICATION: 'sometimes' },
      { OIDC_ISSUER: 'ftp://id.example', OIDC_CLIENT_ID: 'c', OIDC_CLIENT_SECRET: 's' },
      { STRIPE_API_BASE: 'https://api.example/v1' },
    ];
    for (const env of bad) {
      const [name = ''] = Object.keys(env);
      assert.ok(refusal(env).includes(name), `${JSON.stringify(env)} → ${refusal(env)}`);
    }
    assert.ok(refusal({ TRACKING_EXCLUDE: '10.0.0.0/8,bad' }).includes('"bad"'), 'the item is named');
  });

  it('builds mail, OpenID and Stripe from variables set together, and refuses halves', () => {
    const mail = loadConfig({ SMTP_URL: 'smtp://mail.example', MAIL_FROM: 'snip@example.com' });
    assert.deepEqual(mail.mail, { url: 'smtp://mail.example', from: 'snip@example.com' });
    assert.equal(mail.emailVerification, 'required');
    const oidc = loadConfig({
      OIDC_ISSUER: 'https://id.example',
      OIDC_CLIENT_ID: 'c',
      OIDC_CLIENT_SECRET: 's',
    });
    assert.equal(oidc.oidc?.name, 'your identity provider');
    const stripe = loadConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'wh' });
    assert.equal(stripe.billing.stripe?.apiBase.href, 'https://api.stripe.com/');
    for (const [env, name] of [
      [{ SMTP_URL: 'smtp://mail.example' }, 'MAIL_FROM'],
      [{ MAIL_FROM: 'snip@example.com' }, 'SMTP_URL'],
      [{ EMAIL_VERIFICATION: 'required' }, 'EMAIL_VERIFICATION'],
      [{ OIDC_ISSUER: 'https://id.example', OIDC_CLIENT_ID: 'c' }, 'OIDC_CLIENT_SECRET'],
      [{ STRIPE_WEBHOOK_SECRET: 'wh' }, 'STRIPE_SECRET_KEY'],
    ] as const) {
      assert.ok(refusal(env).includes(name), `${JSON.stringify(env)} → ${refusal(env)}`);
    }
  });

  it('stops `snip` with exit 78 and the variable named', () => {
    const run = spawnSync(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', join(ROOT, 'bin', 'snip.js'), '--help'],
      { env: { ...process.env, PORT: 'eighty' }, encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(run.status, 78, run.stderr);
    assert.match(run.stderr, /PORT/);
  });
});
