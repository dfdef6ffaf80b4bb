import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { revenueText } from '../../../src/core/analytics/conversion-figures.ts';
import { csvLine } from '../../../src/core/csv.ts';
import { Refusal } from '../../../src/core/errors.ts';
import type { LinkCsvAsk, LinkCsvPage, Store } from '../../../src/core/ports/store.ts';
import { baseOrigins } from '../../../src/core/short-url.ts';
import { urlHash } from '../../../src/core/target-url.ts';
import { csvExports, EXPORTS_PER_ACCOUNT, linksCsv } from '../../../src/features/links/api/links-csv.ts';
import { callApi } from '../../fixtures/api-client.ts';
import { STORES } from '../../fixtures/stores.ts';
import type { TestApp } from '../../helper.ts';

const actor = {
  keyId: 1,
  workspaceId: 7,
  plan: { id: 1, name: 'p', apiAccess: true, urlQuota: 10, rateLimitPerHour: 10 },
};
const origins = baseOrigins(new URL('https://sn.ip/'));

/** A store of export pages without end: page n holds one row, `n`. */
function endlessPages() {
  const asked: LinkCsvAsk[] = [];
  return {
    asked,
    listGroups: async () => [],
    async exportLinksPage(ask: LinkCsvAsk): Promise<LinkCsvPage> {
      asked.push(ask);
      if (!ask.domains.has(0)) return { missing: [0] };
      const n = asked.length;
      return { csv: `row${n}\r\n`, next: { value: n, id: n } };
    },
  };
}

describe('the CSV export of an account', () => {
  it('asks for the domains a page holds, then lets the event loop turn between pages', async () => {
    const pages: LinkCsvPage[] = [
      { missing: [0] },
      { csv: 'a\r\n', next: { value: 3, id: 3 } },
      { csv: 'b\r\n', next: { value: 2, id: 2 } },
      { csv: 'c\r\n' },
    ];
    const asked: LinkCsvAsk[] = [];
    const store = {
      listGroups: async () => [],
      exportLinksPage: async (ask: LinkCsvAsk) => {
        asked.push({ ...ask, domains: new Map(ask.domains) });
        return pages[asked.length - 1] as LinkCsvPage;
      },
    };
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const chunks: string[] = [];
    try {
      const at: number[] = [];
      for await (const chunk of linksCsv(store, origins, actor)) {
        chunks.push(chunk);
        at.push(turns);
      }
      assert.deepEqual(chunks.slice(1), ['a\r\n', 'b\r\n', 'c\r\n']);
      assert.ok((at[3] ?? 0) > (at[1] ?? 0), `timer turns seen at each chunk: ${at}`);
    } finally {
      clearInterval(ticking);
    }
    assert.equal(asked[0]?.domains.size, 0);
    assert.deepEqual(asked[1]?.domains.get(0), { origin: 'https://sn.ip', host: 'sn.ip' });
    assert.equal(asked[1]?.after, undefined, 'the page that named a missing domain is asked again');
    assert.deepEqual(asked[2]?.after, { value: 3, id: 3 });
  });

  it('reads the next page only when the one before is taken, and stops when the client goes', async () => {
    const store = endlessPages();
    const exports = csvExports((who: typeof actor) => linksCsv(store, origins, who));
    const reading = exports(actor)[Symbol.asyncIterator]();
    for (let i = 0; i < 3; i++) assert.equal((await reading.next()).done, false);
    // The client takes no more for a while: the export waits with it.
    for (let i = 0; i < 20; i++) await nextTurn();
    // The first ask (that named the domain), two pages taken, at most one read ahead.
    assert.ok(store.asked.length <= 4, `pages read: ${store.asked.length}`);
    await reading.return?.(); // the stream destroyed, as when the client goes
    for (let i = 0; i < 5; i++) await nextTurn();
    const readWhenGone = store.asked.length;
    for (let i = 0; i < 20; i++) await nextTurn();
    assert.equal(store.asked.length, readWhenGone, 'no page is read after the client went');
    // Its place is given back: as many exports as allowed start again.
    const again = Array.from({ length: EXPORTS_PER_ACCOUNT }, () => exports(actor));
    for (const one of again) one.destroy();
  });

  it('runs at most two exports of one account at once; a third is 429 until one closes', async () => {
    let open = (): void => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const exports = csvExports(async function* () {
      await gate;
      yield 'x\r\n';
    });
    const streams = Array.from({ length: EXPORTS_PER_ACCOUNT }, () => exports(actor));
    assert.throws(
      () => exports(actor),
      (error) => error instanceof Refusal && error.code === '429' && error.facts.retryAfterSeconds === 5,
    );
    assert.ok(exports({ ...actor, workspaceId: 8 }), 'another account is not held up');
    const closed = new Promise((resolve) => streams[0]?.once('close', resolve));
    streams[0]?.destroy();
    await closed;
    const next = exports(actor);
    open();
    const chunks: string[] = [];
    for await (const chunk of next) chunks.push(String(chunk));
    assert.deepEqual(chunks, ['x\r\n']);
    for (const stream of streams) stream.destroy();
  });
});

const BULK = 1_234;
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';

for (const kind of STORES) {
  describe(`GET /api/v1/links.csv on ${kind.name}`, { skip: kind.skip }, () => {
    let t: TestApp;
    let key: string;
    let pagesRead = 0;
    let code = '';

    before(async () => {
      t = await kind.start({
        env: { CLICK_FLUSH_MS: '60000' },
        // Counts the pages the store is asked for, as the app asks them.
        storeSeenByApp: (store) =>
          new Proxy(store, {
            get(target, property, receiver) {
              const value = Reflect.get(target, property, receiver);
              if (property === 'exportLinksPage')
                return (ask: LinkCsvAsk) => {
                  pagesRead++;
                  return target.exportLinksPage(ask);
                };
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }) as Store,
      });
      const account = await t.ops.createAccount('csv@example.com', 'tester');
      key = account.apiKey;
      const group = await callApi(t.app, 'POST', '/groups', { key, body: { name: 'Launch, "Q4"' } });
      assert.equal(group.status, 201);
      const bodies = [
        { url: 'https://example.com/a', title: '=HYPERLINK("http://evil.example")', tags: ['b', 'a'] },
        { url: 'https://example.com/b', title: 'Comma, quote " here', group: group.body.id },
        { url: 'https://example.com/c', expires_at: '2099-01-02T03:04:05.678Z', tags: ['+plus', 'x'] },
      ];
      for (const body of bodies) {
        const made = await callApi(t.app, 'POST', '/links', { key, body });
        assert.equal(made.status, 201, JSON.stringify(made.body));
      }
      code = await converted();
      const workspaceId = account.account.workspace.id;
      await t.store.insertLinksBulk(
        Array.from({ length: BULK }, (_, i) => {
          const url = `https://example.com/bulk/${i}`;
          return {
            code: `bulk${i}`,
            domainId: 0,
            workspaceId,
            groupId: null,
            longUrl: url,
            normalizedUrl: url,
            urlHash: urlHash(url),
            // Stored as a file or another API may have them: a line break, a formula.
            title: i === 1 ? 'two\r\nlines, "quoted"' : i % 7 === 0 ? `@title ${i}` : `Title ${i}`,
          };
        }),
      );
    });
    after(() => t?.close());

    /** A tracked link with a lead and two sales in two currencies, as the API records them. */
    async function converted(): Promise<string> {
      const made = await callApi(t.app, 'POST', '/links', {
        key,
        body: { url: 'https://shop.example/csv', track_conversions: true },
      });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const code = String(made.body.short_code);
      const click = await t.app.inject({
        method: 'GET',
        url: `/${code}`,
        headers: { 'user-agent': BROWSER },
      });
      const id = /[?&]snip_id=([A-Za-z0-9_-]+)/.exec(String(click.headers.location))?.[1];
      assert.ok(id, String(click.headers.location));
      await t.app.clickIds.flush();
      const track = (path: string, body: unknown) => callApi(t.app, 'POST', path, { key, body });
      assert.equal(
        (await track('/track/lead', { click_id: id, event_name: 'Sign up', customer_id: 'c1' })).status,
        201,
      );
      for (const [amount, currency] of [
        [4900, 'EUR'],
        [100, 'USD'],
      ] as const) {
        assert.equal((await track('/track/sale', { customer_id: 'c1', amount, currency })).status, 201);
      }
      return code;
    }

    /** The rows the export should hold, from the JSON listing: the same fields, the same order. */
    async function expected(): Promise<string> {
      let text = csvLine([
        'short_code',
        'short_url',
        'long_url',
        'title',
        'group',
        'tags',
        'created_at',
        'expires_at',
        'clicks',
        'unique_visitors',
        'domain',
        'leads',
        'sales',
        'revenue',
      ]);
      let cursor = '';
      for (;;) {
        const page = await callApi(t.app, 'GET', `/links?limit=100${cursor}`, { key });
        assert.equal(page.status, 200);
        for (const link of page.body.items as Array<Record<string, unknown>>) {
          const group = link.group as { api_id: string } | null;
          text += csvLine([
            String(link.short_code),
            String(link.short_url),
            String(link.long_url),
            String(link.title),
            group?.api_id ?? '',
            (link.tags as string[]).join(','),
            String(link.created_at),
            link.expires_at === null ? '' : String(link.expires_at),
            String(link.clicks),
            String(link.unique_visitors),
            String(link.domain),
            String(link.leads),
            String(link.sales),
            revenueText(link.revenue as Record<string, number>),
          ]);
        }
        if (!page.body.next_cursor) return text;
        cursor = `&cursor=${page.body.next_cursor}`;
      }
    }

    it('holds every live link as the listing shows it, read from the store in several pages', async () => {
      pagesRead = 0;
      const answer = await t.app.inject({
        method: 'GET',
        url: '/api/v1/links.csv',
        headers: { 'x-api-key': key },
      });
      assert.equal(answer.statusCode, 200);
      assert.match(String(answer.headers['content-type']), /^text\/csv/);
      assert.equal(answer.body.match(/^(bulk\d+|[\w-]+),https:/gm)?.length, BULK + 4);
      assert.equal(answer.body, await expected());
      const row = answer.body.split('\r\n').find((line) => line.startsWith(`${code},`));
      assert.match(String(row), /,1,2,EUR:4900 USD:100$/, 'leads, sales and revenue of the tracked link');
      assert.match(answer.body, /^short_code,.*,domain,leads,sales,revenue\r\n/);
      assert.ok(pagesRead >= 3, `pages read: ${pagesRead}`);
    });
  });
}
