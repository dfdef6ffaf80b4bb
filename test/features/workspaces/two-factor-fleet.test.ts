import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { Secret, TOTP } from 'otpauth';
import { openStore } from '../../../src/adapters/open-store.ts';
import { RedisWindowCounter } from '../../../src/adapters/redis/window-counter.ts';
import { buildApp } from '../../../src/app.ts';
import { loadConfig } from '../../../src/config.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

/**
 * Two-factor sign-in across a fleet (docs/api.md §22.3): two instances on one PostgreSQL store and
 * one Redis share the wrong codes counted against a person and the step each code was taken at, so
 * neither the limit nor the one use of a code can be got round by moving to another instance.
 */

const PASSWORD = 'correct horse battery';
const STEP_MS = 30_000;
const redisUrl = process.env.TEST_REDIS_URL;
const postgres = STORES.find((kind) => kind.name === 'PostgreSQL');
const codeAt = (secret: string, ms: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: ms,
  });

/** The same browser on another instance: its cookies and form token go with it. */
function moved(client: PageClient, app: FastifyInstance): PageClient {
  const other = new PageClient(app);
  for (const [name, value] of client.cookies) other.cookies.set(name, value);
  other.csrf = client.csrf;
  return other;
}

describe('two-factor sign-in across two instances', {
  skip: postgres?.skip || (redisUrl ? false : 'TEST_REDIS_URL is not set'),
}, () => {
  let t: TestApp;
  let second: FastifyInstance;
  let secondStore: Store;
  let redis: Redis;
  let clock = Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2;

  before(async () => {
    redis = new Redis(redisUrl as string);
    const prefix = `snip_2fa_${randomBytes(6).toString('hex')}:`;
    const now = () => clock;
    t = await (postgres as NonNullable<typeof postgres>).start({
      now,
      counter: new RedisWindowCounter(redis, prefix),
    });
    secondStore = await openStore(t.config.databaseUrl, { prepare: true });
    second = await buildApp(loadConfig({ BASE_URL: 'https://sn.ip', DATABASE_URL: t.config.databaseUrl }), {
      store: secondStore,
      now,
      counter: new RedisWindowCounter(redis, prefix),
    });
    await t.ops.createAccount('fleet@example.com', 'tester', PASSWORD);
  });
  after(async () => {
    await second?.close();
    await secondStore?.close();
    await t?.close();
    redis?.disconnect();
  });

  it('counts wrong codes on every instance together and takes each code once', async () => {
    const owner = new PageClient(t.app);
    await owner.signIn('fleet@example.com', PASSWORD);
    const setup = await owner.open('/account/2fa');
    const secret = attribute(setup.body, 'data-secret') ?? '';
    const sealed = /name="setup" value="([^"]+)"/.exec(setup.body)?.[1] ?? '';
    assert.equal(
      (await owner.post('/account/2fa', { setup: sealed, code: codeAt(secret, clock) })).statusCode,
      200,
    );
    clock += 2 * STEP_MS;

    const onFirst = new PageClient(t.app);
    assert.equal((await onFirst.signIn('fleet@example.com', PASSWORD)).statusCode, 200);
    for (let i = 0; i < 3; i++)
      assert.equal((await onFirst.post('/login/code', { code: '000000' })).statusCode, 401);
    const onSecond = moved(onFirst, second);
    for (let i = 0; i < 2; i++)
      assert.equal((await onSecond.post('/login/code', { code: '000000' })).statusCode, 401);
    assert.equal((await onFirst.post('/login/code', { code: codeAt(secret, clock) })).statusCode, 429);

    clock += 15 * 60_000;
    const again = new PageClient(second);
    assert.equal((await again.signIn('fleet@example.com', PASSWORD)).statusCode, 200);
    assert.equal((await again.post('/login/code', { code: codeAt(secret, clock) })).statusCode, 303);
    const replay = new PageClient(t.app);
    assert.equal((await replay.signIn('fleet@example.com', PASSWORD)).statusCode, 200);
    assert.equal((await replay.post('/login/code', { code: codeAt(secret, clock) })).statusCode, 401);
  });
});
