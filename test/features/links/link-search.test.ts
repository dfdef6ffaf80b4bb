/**
 * The link list's search, filters and sorts (docs/api.md §18) through GET /api/v1/links and the
 * dashboard's address: q (a code prefix, a short URL pasted whole, title, long URL, tags), tag
 * (every one), group, domain, state, sort and order with cursors across pages. On SQLite, and on
 * PostgreSQL when TEST_DATABASE_URL is set (a schema of its own). Archived, disabled, clicked and
 * expired links are made with direct SQL: the list reads the columns, whoever writes them.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import postgres from 'postgres';
import { numbered } from '../../../src/adapters/postgres/client.ts';
import { assertProblem, callApi } from '../../fixtures/api-client.ts';
import { PageClient } from '../../fixtures/page-client.ts';
import { type Answer, startTestApp, type TestApp } from '../../helper.ts';

const PASSWORD = 'correct horse battery';
type Sql = (
  text: string,
  ...params: Array<string | number | null>
) => Promise<Array<Record<string, unknown>>>;

/** Runs statements on the app's own database, beside the app. */
function sqlOf(databaseUrl: string): { sql: Sql; close: () => Promise<void> } {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new DatabaseSync(databaseUrl.slice('sqlite:'.length), { timeout: 5000 });
    return {
      sql: async (text, ...params) => db.prepare(text).all(...params) as Array<Record<string, unknown>>,
      close: async () => db.close(),
    };
  }
  const int8 = { to: 20, from: [20], serialize: String, parse: Number };
  const db = postgres(databaseUrl, { max: 1, onnotice: () => {}, types: { int8 } });
  return {
    sql: async (text, ...params) => [...(await db.unsafe(numbered(text), params as never[]))],
    close: () => db.end({ timeout: 5 }),
  };
}

interface Row {
  id: number;
  code: string;
  title: string;
  clicks: number;
  created_at: number;
  last_clicked_at: number | null;
}

function searchCases(name: string, databaseUrl: () => Promise<string | undefined>) {
  describe(`the link list, ${name}`, () => {
    const records = new Map<string, string[]>();
    let t: TestApp;
    let key: string;
    let db: { sql: Sql; close: () => Promise<void> };
    let client: PageClient;
    let groupId = 0;

    const list = async (query: string): Promise<Answer> => callApi(t.app, 'GET', `/links${query}`, { key });
    const codes = async (query: string): Promise<string[]> => {
      const answer = await list(query);
      assert.equal(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
      return (answer.body.items as Array<{ short_code: string }>).map((item) => item.short_code);
    };
    const sorted = async (query: string) => (await codes(query)).sort();

    before(async () => {
      const url = await databaseUrl();
      t = await startTestApp({
        env: url ? { DATABASE_URL: url } : {},
        resolveTxt: async (record) => {
          const values = records.get(record);
          if (values === undefined) throw Object.assign(new Error('no record'), { code: 'ENODATA' });
          return values.map((value) => [value]);
        },
      });
      db = sqlOf(t.config.databaseUrl);
      const made = await t.ops.createAccount('ada@example.com', 'tester', PASSWORD);
      key = made.apiKey;
      client = new PageClient(t.app);
      assert.equal((await client.signIn('ada@example.com', PASSWORD)).statusCode, 303);

      const added = await callApi(t.app, 'POST', '/domains', { key, body: { host: 'brand.example' } });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const { record, value } = added.body.verification as { record: string; value: string };
      records.set(record, [value]);
      assert.equal((await callApi(t.app, 'POST', '/domains/brand.example/verify', { key })).status, 200);
      const group = await callApi(t.app, 'POST', '/groups', { key, body: { name: 'Spring' } });
      assert.equal(group.status, 201, JSON.stringify(group.body));
      groupId = group.body.id as number;

      const links: Array<Record<string, unknown>> = [
        { slug: 'spring-26', title: 'alpha', url: 'https://a.example/one', tags: ['promo', 'q2'] },
        {
          slug: 'Spring-27',
          title: 'beta',
          url: 'https://b.example/garden',
          tags: ['promo'],
          group: groupId,
        },
        { slug: 'summer', title: 'beta', url: 'https://c.example/x', tags: ['q2'] },
        {
          slug: 'winter',
          title: 'gamma',
          url: 'https://d.example/y',
          tags: ['newsletter'],
          domain: 'brand.example',
        },
        { slug: 'archived', title: 'delta', url: 'https://e.example/z' },
        { slug: 'disabled', title: 'epsilon', url: 'https://f.example/z' },
        { slug: 'expired', title: 'zeta', url: 'https://g.example/z' },
        { slug: 'plain', title: '', url: 'https://h.example/100%25' },
      ];
      for (const body of links) {
        const answer = await callApi(t.app, 'POST', '/links', { key, body });
        assert.equal(answer.status, 201, JSON.stringify(answer.body));
      }
      // Ties in every order, and links never clicked, so the tie-break and the nulls are exercised.
      const facts: Array<[string, number, number | null, number]> = [
        ['spring-26', 5, 3000, 1000],
        ['Spring-27', 5, null, 1000],
        ['summer', 9, 3000, 2000],
        ['winter', 0, null, 2000],
        ['archived', 1, 1000, 3000],
        ['disabled', 5, 2000, 3000],
        ['expired', 2, null, 4000],
        ['plain', 9, 4000, 4000],
      ];
      for (const [code, clicks, last, created] of facts)
        await db.sql(
          'UPDATE links SET clicks = ?, last_clicked_at = ?, created_at = ? WHERE code = ?',
          clicks,
          last,
          created,
          code,
        );
      await db.sql("UPDATE links SET archived = true WHERE code = 'archived'");
      await db.sql("UPDATE links SET disabled_at = 1, disabled_reason = 'phishing' WHERE code = 'disabled'");
      await db.sql("UPDATE links SET expires_at = 1 WHERE code = 'expired'");
    });
    after(async () => {
      await db?.close();
      await t?.close();
    });

    it('finds a code prefix in any case, a title, a long URL and a tag with q', async () => {
      assert.deepEqual(await sorted('?q=SPRING'), ['Spring-27', 'spring-26']);
      assert.deepEqual(await sorted('?q=sum'), ['summer']);
      assert.deepEqual(await sorted('?q=GAMM'), ['winter'], 'the title');
      assert.deepEqual(await sorted('?q=garden'), ['Spring-27'], 'the long URL');
      assert.deepEqual(await sorted('?q=sletter'), ['winter'], 'a tag, within');
      assert.deepEqual(await sorted('?q=%25'), ['plain'], 'a % is a literal %');
      assert.deepEqual(await sorted('?q=nothing-like-this'), []);
    });

    it('finds the one link of a short URL pasted whole, any scheme or trailing slash', async () => {
      const pasted = async (text: string) => sorted(`?q=${encodeURIComponent(text)}`);
      assert.deepEqual(await pasted('https://sn.ip/summer'), ['summer']);
      assert.deepEqual(await pasted('  http://SN.IP/summer/  '), ['summer']);
      assert.deepEqual(await pasted('https://brand.example/winter'), ['winter']);
      assert.deepEqual(await pasted('https://sn.ip/winter'), [], 'winter is on brand.example');
      assert.deepEqual(await pasted('https://sn.ip/spring'), [], 'a short URL is whole, not a prefix');
      assert.deepEqual(await pasted('https://b.example/garden'), ['Spring-27'], 'a long URL is text');
    });

    it('filters by every tag given, a group by id or API identifier, and a domain', async () => {
      assert.deepEqual(await sorted('?tag=promo'), ['Spring-27', 'spring-26']);
      assert.deepEqual(await sorted('?tag=promo&tag=q2'), ['spring-26']);
      assert.deepEqual(await sorted('?tag=promo&tag=newsletter'), []);
      assert.deepEqual(await sorted(`?group=${groupId}`), ['Spring-27']);
      assert.deepEqual(await sorted('?group=spring'), ['Spring-27']);
      assert.deepEqual(await sorted('?domain=brand.example'), ['winter']);
      assert.deepEqual(await sorted('?domain=sn.ip&tag=q2&q=s'), ['spring-26', 'summer']);
      assertProblem(await list('?domain=elsewhere.example'), 400, '317');
    });

    it('leaves archived links out by default and lists each state', async () => {
      const live = ['Spring-27', 'disabled', 'expired', 'plain', 'spring-26', 'summer', 'winter'];
      assert.deepEqual(await sorted(''), live);
      assert.deepEqual(await sorted('?state=archived'), ['archived']);
      assert.deepEqual(await sorted('?state=disabled'), ['disabled']);
      assert.deepEqual(await sorted('?state=expired'), ['expired']);
      assert.deepEqual(await sorted('?state=active'), [
        'Spring-27',
        'plain',
        'spring-26',
        'summer',
        'winter',
      ]);
      assert.deepEqual(await sorted('?state=broken'), []);
      assert.deepEqual(await sorted('?state=all'), [...live, 'archived'].sort());
    });

    it('sorts by each order both ways, a cursor at a time, without a link twice or one left out', async () => {
      const rows = (await db.sql(
        'SELECT id, code, title, clicks, created_at, last_clicked_at FROM links',
      )) as unknown as Row[];
      const orderValue: Record<string, (row: Row) => number | string> = {
        created: (row) => Number(row.created_at),
        clicks: (row) => Number(row.clicks),
        last_click: (row) => Number(row.last_clicked_at ?? 0),
        title: (row) => row.title,
      };
      for (const sort of ['created', 'clicks', 'last_click', 'title'])
        for (const order of ['desc', 'asc']) {
          const value = orderValue[sort] as (row: Row) => number | string;
          const sign = order === 'asc' ? 1 : -1;
          const expected = [...rows]
            .sort((a, b) => {
              const [x, y] = [value(a), value(b)];
              return sign * (x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id));
            })
            .map((row) => row.code);
          const seen: string[] = [];
          let cursor: string | null = null;
          let pages = 0;
          do {
            const query: string = `?state=all&limit=3&sort=${sort}&order=${order}${cursor ? `&cursor=${cursor}` : ''}`;
            const answer = await list(query);
            assert.equal(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
            seen.push(...(answer.body.items as Array<{ short_code: string }>).map((item) => item.short_code));
            cursor = answer.body.next_cursor as string | null;
            pages += 1;
          } while (cursor && pages < 10);
          assert.deepEqual(seen, expected, `sort=${sort}&order=${order}`);
          assert.equal(pages, 3, `sort=${sort}&order=${order}: 8 links, 3 to a page`);
        }
    });

    it('refuses an unknown sort, order or state, and a cursor of another order, with 300', async () => {
      for (const query of ['?sort=popularity', '?order=up', '?state=deleted', '?sort=', '?order=DESC'])
        assertProblem(await list(query), 400, '300');
      const page = await list('?sort=clicks&limit=2');
      const cursor = String(page.body.next_cursor);
      assert.equal((await list(`?sort=clicks&limit=2&cursor=${cursor}`)).status, 200);
      for (const other of ['', '&sort=title', '&sort=clicks&order=asc', '&sort=last_click'])
        assertProblem(await list(`?limit=2&cursor=${cursor}${other}`), 400, '300');
      const first = String((await list('?limit=2')).body.next_cursor);
      assertProblem(await list(`?limit=2&order=asc&cursor=${first}`), 400, '300');
    });

    it('lists the same links on the dashboard from the same parameters', async () => {
      const home = await client.open('/dashboard');
      const base = client.home || String(home.headers.location ?? '');
      const page = async (query: string) => {
        const answer = await client.open(`${base}?${query}`);
        assert.equal(answer.statusCode, 200);
        return [...answer.body.matchAll(/<tr data-code="([^"]+)"/g)].map((match) => match[1]);
      };
      assert.deepEqual(await page('sort=title&order=asc&tag=promo'), ['spring-26', 'Spring-27']);
      assert.deepEqual(await page('tag=promo&tag=q2'), ['spring-26']);
      assert.deepEqual(await page('domain=brand.example'), ['winter']);
      assert.deepEqual(await page('q=https%3A%2F%2Fsn.ip%2Fsummer'), ['summer']);
      assert.deepEqual(await page('state=archived'), ['archived']);
      assert.deepEqual(await page('sort=clicks&order=desc&state=active'), [
        'plain',
        'summer',
        'Spring-27',
        'spring-26',
        'winter',
      ]);
      assert.ok(!(await page('')).includes('archived'), 'archived links are left out by default');
      assert.deepEqual(await page('sort=nonsense&state=nonsense&q=SPRING'), ['Spring-27', 'spring-26']);
    });
  });
}

searchCases('on SQLite', async () => undefined);

const pgUrl = process.env.TEST_DATABASE_URL;
describe('on PostgreSQL', { skip: pgUrl ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const schema = `snip_search_${randomBytes(6).toString('hex')}`;
  const admin = pgUrl ? postgres(pgUrl, { max: 1, onnotice: () => {} }) : undefined;
  after(async () => {
    await admin?.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end({ timeout: 5 });
  });
  searchCases('on PostgreSQL', async () => {
    await admin?.unsafe(`CREATE SCHEMA "${schema}"`);
    const url = new URL(pgUrl as string);
    url.searchParams.set('search_path', schema);
    return url.toString();
  });
});
