import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { RedisVisitors } from '../../../src/adapters/redis/visitors.ts';
import { RedisWindowCounter } from '../../../src/adapters/redis/window-counter.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import { startReceiver } from '../../fixtures/webhook-receiver.ts';
import type { TestAppOptions } from '../../helper.ts';

/**
 * A merchant's customer ids and invoice ids never rest anywhere in Snip (docs/api.md §20): after
 * leads and sales with distinctive ones, neither is in the database (every table, the file itself),
 * in Redis, in the log, in a webhook body or in any answer; only their HMACs are.
 */

const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
const redisUrl = process.env.TEST_REDIS_URL;

for (const kind of STORES) {
  describe(`customer ids kept nowhere on ${kind.name}`, {
    skip: kind.skip || (redisUrl ? false : 'TEST_REDIS_URL is not set'),
  }, () => {
    it('finds no customer or invoice id in the store, Redis, the log, webhooks or answers', async () => {
      const tag = randomBytes(6).toString('hex');
      const customers = [`Zq7cust-${tag}`, `person.${tag}@mail.example`, `Müller ${tag}`];
      const invoices = [`Zq7inv-${tag}`];
      const secrets = [...customers, ...invoices];
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      const redis = new Redis(redisUrl as string);
      const prefix = `snip_conv_${tag}:`;
      const receiver = await startReceiver();
      const t = await kind.start({
        logger: { level: 'trace', stream } as TestAppOptions['logger'],
        counter: new RedisWindowCounter(redis, prefix),
        visitors: new RedisVisitors(redis, prefix),
        env: { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RETRY_BASE_MS: '20', CLICK_FLUSH_MS: '60000' },
      });
      const answers: string[] = [];
      try {
        const api = async (method: string, path: string, body?: unknown) => {
          const answer = await callApi(t.app, method, path, {
            key: t.apiKey,
            ...(body === undefined ? {} : { body }),
          });
          answers.push(JSON.stringify(answer.headers), JSON.stringify(answer.body));
          return answer;
        };
        await api('POST', '/webhooks', { url: receiver.url, events: ['lead.created', 'sale.created'] });
        const made = await api('POST', '/links', {
          url: 'https://shop.example/privacy',
          track_conversions: true,
        });
        const code = String(made.body.short_code);
        for (const [i, customer] of customers.entries()) {
          const click = await t.app.inject({
            method: 'GET',
            url: `/${code}`,
            headers: { 'user-agent': BROWSER },
          });
          const id = /snip_id=([A-Za-z0-9_-]+)/.exec(String(click.headers.location))?.[1];
          await t.app.clickIds.flush();
          const lead = await api('POST', '/track/lead', {
            click_id: id,
            event_name: 'Sign up',
            customer_id: customer,
          });
          assert.equal(lead.status, 201);
          await api('POST', '/track/sale', {
            customer_id: customer,
            amount: 100 * (i + 1),
            currency: 'EUR',
            ...(i === 0 ? { invoice_id: invoices[0] } : {}),
          });
        }
        await api('POST', '/track/sale', {
          customer_id: customers[0],
          amount: 100,
          currency: 'EUR',
          invoice_id: invoices[0],
        });
        await api('GET', `/links/${code}`);
        await api('GET', `/links/${code}/stats`);
        await receiver.until(() => receiver.ofType('sale.created').length >= 3);
        await t.app.clicks.flush();

        const stored = await storeText(t.config.databaseUrl);
        assert.ok(stored.includes('Sign up'), 'the dump holds the leads');
        const keys = await redis.keys(`${prefix}*`);
        assert.ok(keys.length > 0, 'the run used Redis');
        const values: string[] = [];
        for (const key of keys) {
          const type = await redis.type(key);
          if (type === 'set') values.push(key, ...(await redis.smembers(key)));
          else if (type === 'hash') values.push(key, JSON.stringify(await redis.hgetall(key)));
          else if (type === 'zset') values.push(key, ...(await redis.zrange(key, 0, -1)));
          else values.push(key, String(await redis.get(key)));
        }
        const places: Record<string, string> = {
          store: stored,
          redis: values.join('\n'),
          log: lines.join('\n'),
          webhooks: receiver.received.map((one) => one.body).join('\n'),
          answers: answers.join('\n'),
        };
        for (const [place, text] of Object.entries(places)) {
          for (const secret of secrets) {
            assert.ok(!text.includes(secret), `${secret} is in ${place}`);
            assert.ok(!text.includes(encodeURIComponent(secret)), `${secret} (encoded) is in ${place}`);
          }
        }
      } finally {
        await t.close();
        await receiver.close();
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) await redis.del(...keys);
        redis.disconnect();
      }
    });
  });
}

/** Every table of the store as text: SQLite's files byte for byte, or PostgreSQL's pg_dump. */
async function storeText(databaseUrl: string): Promise<string> {
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    const dir = dirname(file);
    const parts: string[] = [];
    for (const name of await readdir(dir)) {
      if (name.startsWith('snip.db')) parts.push((await readFile(`${dir}/${name}`)).toString('latin1'));
      if (name.startsWith('snip.db')) parts.push((await readFile(`${dir}/${name}`)).toString('utf8'));
    }
    return parts.join('\n');
  }
  const { stdout } = await promisify(execFile)('pg_dump', ['--data-only', databaseUrl], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}
