import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword } from '../../../src/core/password.ts';
import { attribute, PageClient } from '../../fixtures/page-client.ts';
import { startTestApp, type TestApp } from '../../helper.ts';

/** Expiry, visit limit, password and targeting rules through the dashboard's create and edit forms. */

const PASSWORD = 'correct horse battery';
const FUTURE = '2099-06-30T18:30';

async function signedIn(t: TestApp): Promise<PageClient> {
  await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
  const client = new PageClient(t.app);
  assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);
  return client;
}

const emptyRows = (from: number, to: number) =>
  Object.fromEntries(
    Array.from({ length: to - from }, (_, n) => n + from).flatMap((i) => [
      [`rule_device_${i}`, ''],
      [`rule_country_${i}`, ''],
      [`rule_language_${i}`, ''],
      [`rule_url_${i}`, ''],
    ]),
  );

describe('link rules on the dashboard forms', () => {
  it('creates a link with expiry, limit, password and two rules, and shows them but never the password', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t);
      const answer = await client.post(client.at('/links'), {
        url: 'https://example.com/guarded',
        slug: 'guarded',
        expires_at: FUTURE,
        max_clicks: '25',
        password: 'open sesame',
        ...emptyRows(0, 3),
        rule_device_0: 'ios',
        rule_url_0: 'https://example.com/ios',
        rule_country_2: 'de',
        rule_language_2: 'FR',
        rule_url_2: 'https://example.com/de',
      });
      assert.equal(answer.statusCode, 303, answer.body);
      const link = await t.store.findLinkByCode(0, 'guarded');
      assert.equal(link?.expiresAt?.toISOString(), '2099-06-30T18:30:00.000Z');
      assert.equal(link?.maxClicks, 25);
      assert.ok(link?.passwordHash?.startsWith('scrypt$'));
      assert.deepEqual(link?.rules, [
        { if: { device: 'ios' }, url: 'https://example.com/ios' },
        { if: { country: 'DE', language: 'fr' }, url: 'https://example.com/de' },
      ]);

      const list = await client.open(client.at(''));
      for (const badge of ['expires', 'limit', 'password', 'rules']) {
        assert.match(list.body, new RegExp(`data-badge="${badge}"`), badge);
      }
      const page = await client.open(client.at('/links/guarded?edit'));
      assert.match(page.body, /name="expires_at"[^>]*value="2099-06-30T18:30"/);
      assert.match(page.body, /name="max_clicks"[^>]*value="25"/);
      assert.match(page.body, /name="remove_password"/);
      assert.match(page.body, /name="rule_url_1"[^>]*value="https:\/\/example\.com\/de"/);
      assert.doesNotMatch(page.body, /open sesame/);
    } finally {
      await t.close();
    }
  });

  it('re-renders a refused create with what was typed but the password, and creates nothing', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t);
      const cases: Array<[Record<string, string>, number, string]> = [
        [{ expires_at: '2001-01-01T00:00' }, 400, '300'],
        [{ max_clicks: '0' }, 400, '300'],
        [{ rule_country_0: 'DE', rule_url_0: '' }, 400, '300'],
        [{ rule_url_0: 'https://example.com/no-condition' }, 400, '300'],
        [{ rule_device_0: 'desktop', rule_url_0: 'https://facebook.com/x' }, 422, '310'],
      ];
      for (const [fields, status, error] of cases) {
        const answer = await client.post(client.at('/links'), {
          url: 'https://example.com/typed',
          password: 'typed secret',
          ...fields,
        });
        const what = JSON.stringify(fields);
        assert.equal(answer.statusCode, status, what);
        assert.equal(attribute(answer.body, 'data-error'), error, what);
        assert.match(answer.body, /<details class="more" open>/, what);
        for (const [name, value] of Object.entries(fields)) {
          const kept = name.startsWith('rule_device_')
            ? new RegExp(`name="${name}">(?:<option[^>]*>[^<]*</option>)*<option value="${value}" selected>`)
            : new RegExp(`name="${name}"[^>]*value="${value}"`);
          assert.match(answer.body, kept, `${what} ${name}`);
        }
        assert.doesNotMatch(answer.body, /typed secret/);
        assert.equal(attribute(answer.body, 'data-retype'), 'password');
      }
      const account = await t.store.findAccountByEmail('ada@example.com');
      assert.equal((await t.store.listLinks(account?.workspace.id ?? 0, { limit: 10 })).total, 0);
    } finally {
      await t.close();
    }
  });

  it('edits only what changed: removes the password, clears the limit, keeps a past expiry as it is', async () => {
    const t = await startTestApp();
    try {
      const client = await signedIn(t);
      const account = await t.store.findAccountByEmail('ada@example.com');
      const url = 'https://example.com/old';
      await t.store.insertLinksBulk([
        {
          code: 'expired1',
          domainId: 0,
          workspaceId: account?.workspace.id ?? 0,
          groupId: null,
          longUrl: url,
          normalizedUrl: url,
          urlHash: 'a'.repeat(64),
          title: 'Old',
          guards: {
            expiresAt: new Date('2020-01-01T00:00:00Z'),
            maxClicks: 3,
            passwordHash: await hashPassword('open sesame'),
            rules: [{ if: { device: 'android' }, url: 'https://example.com/android' }],
          },
        },
      ]);
      const page = await client.open(client.at('/links/expired1'));
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /data-fact="expires">[^<]*<span class="badge gone">Expired/);
      const form = {
        url,
        title: 'Old',
        group: '',
        expires_at: '2020-01-01T00:00',
        max_clicks: '3',
        password: '',
        ...emptyRows(0, 4),
        rule_device_0: 'android',
        rule_url_0: 'https://example.com/android',
      };
      const same = await client.post(client.at('/links/expired1'), form);
      assert.equal(same.headers.location, client.at('/links/expired1?done=unchanged'));

      const saved = await client.post(client.at('/links/expired1'), {
        ...form,
        title: 'Renamed',
        max_clicks: '',
        remove_password: '1',
      });
      assert.equal(saved.statusCode, 303, saved.body);
      const link = await t.store.findLinkByCode(0, 'expired1');
      assert.equal(link?.title, 'Renamed');
      assert.equal(link?.maxClicks, null);
      assert.equal(link?.passwordHash, null);
      assert.equal(link?.expiresAt?.toISOString(), '2020-01-01T00:00:00.000Z', 'kept as it was');
      assert.equal(link?.rules.length, 1);

      const refused = await client.post(client.at('/links/expired1'), {
        ...form,
        title: 'Renamed',
        max_clicks: '',
        expires_at: '2021-01-01T00:00',
        rule_url_0: 'not a url',
      });
      assert.equal(refused.statusCode, 400);
      assert.equal(attribute(refused.body, 'data-error'), '300');
      assert.match(refused.body, /name="expires_at"[^>]*value="2021-01-01T00:00"/);
      assert.match(refused.body, /name="rule_url_0"[^>]*value="not a url"/);
      assert.equal(
        (await t.store.findLinkByCode(0, 'expired1'))?.rules[0]?.url,
        'https://example.com/android',
      );
    } finally {
      await t.close();
    }
  });
});
