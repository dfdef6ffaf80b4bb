/**
 * Claims on a host (docs/api.md §12): an unverified domain holds its host for no one. Several
 * workspaces claim one host; the first to verify it wins and the others' claims go, each
 * workspace told (the audit log, and a mail received by a real SMTP server on loopback); a claim
 * lapses after 7 days (the app's clock moved); a workspace holds at most DOMAINS_PENDING_MAX claims.
 * Through /api/v1 on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set (a schema of its own).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { type SmtpInbox, startSmtpInbox } from '../../fixtures/smtp-inbox.ts';
import { send, startTestApp, type TestApp } from '../../helper.ts';

const DAY = 86_400_000;

function claimCases(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`claims on a host, ${name}`, () => {
    const records = new Map<string, string[]>();
    let t: TestApp;
    let inbox: SmtpInbox;
    let clock = Date.now();
    const keys: Record<string, string> = {};
    const workspaceOf: Record<string, number> = {};

    before(async () => {
      inbox = await startSmtpInbox();
      const url = await databaseUrl();
      t = await startTestApp({
        env: {
          SMTP_URL: inbox.url,
          MAIL_FROM: 'Snip <snip@sn.ip>',
          EMAIL_VERIFICATION: 'off',
          DOMAINS_PENDING_MAX: '3',
          ...(url ? { DATABASE_URL: url } : {}),
        },
        now: () => clock,
        resolveTxt: async (record) => {
          const values = records.get(record);
          if (values === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
          return values.map((value) => [value]);
        },
      });
      for (const who of ['ada', 'bob', 'cyd']) {
        const { account, apiKey } = await t.ops.createAccount(`${who}@example.com`, 'tester');
        keys[who] = apiKey;
        workspaceOf[who] = account.workspace.id;
      }
    });
    after(async () => {
      await t?.close();
      await inbox?.close();
    });

    const api = (who: string, method: string, path: string, body?: unknown) =>
      callApi(t.app, method, path, { key: keys[who] as string, ...(body === undefined ? {} : { body }) });
    const hosts = async (who: string) =>
      ((await api(who, 'GET', '/domains')).body.items as Array<{ host: string; verified: boolean }>)
        .filter((item) => item.host !== 'sn.ip')
        .map((item) => `${item.host}${item.verified ? '' : ' (pending)'}`);
    /** Adds the host for the workspace and publishes its TXT record: it verifies when asked. */
    async function claim(who: string, host: string) {
      const added = await api(who, 'POST', '/domains', { host });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const { record, value } = added.body.verification as { record: string; value: string };
      return () => records.set(record, [...(records.get(record) ?? []), value]);
    }

    it('lets several workspaces claim one host; each sees its own claim only, nothing is served', async () => {
      await claim('ada', 'brand.example');
      await claim('bob', 'brand.example');
      assert.deepEqual(await hosts('ada'), ['brand.example (pending)']);
      assert.deepEqual(await hosts('bob'), ['brand.example (pending)']);
      assert.equal((await api('bob', 'GET', '/domains/brand.example')).body.verified, false);
      assertProblem(await api('ada', 'POST', '/domains', { host: 'brand.example' }), 400, '317');
      const ask = await send(t.app, {
        method: 'GET',
        url: '/.well-known/snip/tls-allowed?domain=brand.example',
      });
      assert.equal(ask.status, 404);
      assert.equal(
        (await send(t.app, { method: 'GET', url: '/', headers: { host: 'brand.example' } })).status,
        404,
      );
    });

    it('gives the host to the first workspace that verifies it, drops the others’ claims and tells them', async () => {
      const publishBob = await claim('bob', 'shop.example');
      const publishCyd = await claim('cyd', 'shop.example');
      publishCyd();
      publishBob();
      const won = await api('cyd', 'POST', '/domains/shop.example/verify');
      assert.equal(won.status, 200);
      assert.equal(won.body.verified, true);
      assert.deepEqual(await hosts('cyd'), ['shop.example']);
      assert.deepEqual(await hosts('bob'), ['brand.example (pending)'], 'bob’s claim on shop.example went');
      assertProblem(await api('bob', 'POST', '/domains/shop.example/verify'), 404, '314');
      assertProblem(await api('bob', 'POST', '/domains', { host: 'shop.example' }), 400, '317');
      const body = { url: 'https://example.com/shop', domain: 'shop.example' };
      assertProblem(await api('bob', 'POST', '/links', body), 400, '317');
      assert.equal((await api('cyd', 'POST', '/links', body)).status, 201);
      const mail = await inbox.next({ to: 'bob@example.com' });
      assert.match(mail.subject, /shop\.example/);
      assert.match(mail.text, /\/w\/[a-z0-9-]+\/domains/);
      const audit = await t.store.listAudit({ workspaceId: workspaceOf.bob, limit: 10 });
      const dropped = audit.find((entry) => entry.action === 'domain.drop');
      assert.deepEqual([dropped?.target, dropped?.actor], ['shop.example', 'snip']);
      assert.equal(inbox.received.filter((m) => m.to.includes('cyd@example.com')).length, 0);
    });

    it('refuses a claim past DOMAINS_PENDING_MAX with 300, and counts verified domains as none', async () => {
      // bob holds brand.example; cyd's verified shop.example counts nothing.
      await claim('bob', 'one.example');
      await claim('bob', 'two.example');
      assertProblem(await api('bob', 'POST', '/domains', { host: 'three.example' }), 400, '300');
      await claim('cyd', 'one.example');
      await claim('cyd', 'two.example');
      await claim('cyd', 'three.example');
      assertProblem(await api('cyd', 'POST', '/domains', { host: 'four.example' }), 400, '300');
      assert.equal((await api('bob', 'DELETE', '/domains/two.example')).status, 204);
      await claim('bob', 'three.example');
    });

    it('lets a claim lapse after 7 days: no longer listed, counted or verifiable, and the host free again', async () => {
      clock += 7 * DAY - 60_000;
      assert.deepEqual(await hosts('bob'), [
        'brand.example (pending)',
        'one.example (pending)',
        'three.example (pending)',
      ]);
      clock += 60_000;
      assert.deepEqual(await hosts('bob'), []);
      assert.deepEqual(await hosts('cyd'), ['shop.example']);
      assertProblem(await api('bob', 'POST', '/domains/brand.example/verify'), 404, '314');
      for (const host of ['brand.example', 'one.example', 'three.example']) await claim('bob', host);
      assert.deepEqual((await hosts('bob')).length, 3);
      const swept = await t.store.purgeExpiredClaims(new Date(clock - 7 * DAY + 1));
      assert.ok(swept >= 4, `the lapsed and removed claims are swept (${swept})`);
      assert.deepEqual((await hosts('bob')).length, 3, 'the fresh claims stay');
    });
  });
}

claimCases('on SQLite', async () => undefined);

const pgUrl = process.env.TEST_DATABASE_URL;
describe('on PostgreSQL', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const schema = `snip_claims_${randomBytes(6).toString('hex')}`;
  const admin = pgUrl ? postgres(pgUrl, { max: 1, onnotice: () => {} }) : undefined;
  after(async () => {
    await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end({ timeout: 5 });
  });
  claimCases('on PostgreSQL', async () => {
    await admin?.unsafe(`CREATE SCHEMA "${schema}"`);
    const url = new URL(pgUrl as string);
    url.searchParams.set('search_path', schema);
    return url.toString();
  });
});
