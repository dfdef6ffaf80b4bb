/**
 * The store's side of the link list (docs/api.md §18): listLinks with a search, states, every tag,
 * a domain, and each sort both ways read by keyset forwards and back, and the default list's total.
 * On SQLite always — a new file per case — and on PostgreSQL when TEST_DATABASE_URL is set — a
 * new schema per case, dropped afterwards. Columns other helpers write (archived, last click,
 * disabled) are set with direct SQL.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Link } from '../../../src/core/entities.ts';
import { type LinkOrder, type LinkQuery, positionOf } from '../../../src/core/link-query.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

type Harness = StoreHarness;

const NOW = 10_000;

function linkListContract(name: string, open: () => Promise<Harness>) {
  describe(`listing links, ${name}`, () => {
    let h: Harness;
    let workspaceId = 0;
    /** Code → link, as inserted. */
    const made = new Map<string, Link>();

    beforeEach(async () => {
      h = await open();
      const plan = await h.store.upsertPlan(planInput());
      workspaceId = (await givenAccount(h.store, 'ada@example.com', plan)).id;
      made.clear();
      const specs: Array<[string, string, string[], number, number | null, number]> = [
        ['Alpha01', 'kiwi', ['promo', 'q2'], 5, 3000, 1000],
        ['alpha02', 'apple', ['promo'], 5, null, 1000],
        ['beta003', 'apple', ['q2'], 9, 3000, 2000],
        ['beta004', '', [], 0, null, 2000],
        ['gamma05', 'mango', ['promo'], 1, 1000, 3000],
      ];
      for (const [code, title, tags, clicks, last, created] of specs) {
        const result = await h.store.insertLinkWithinQuota(
          newLink(workspaceId, `https://example.com/${code}`, { code, title, tags }),
        );
        assert.equal(result.kind, 'created');
        if (result.kind === 'created') made.set(code, result.link);
        await h.sql(
          'UPDATE links SET clicks = ?, last_clicked_at = ?, created_at = ? WHERE code = ?',
          clicks,
          last,
          created,
          code,
        );
      }
      // As the store now has them, with the values set above.
      for (const link of (await h.store.listLinks(workspaceId, { limit: 20 })).links)
        made.set(link.code, link);
    });
    afterEach(() => h.close());

    const codes = async (query: Omit<LinkQuery, 'limit'>, limit = 20) =>
      (await h.store.listLinks(workspaceId, { limit, ...query })).links.map((link) => link.code);

    it('finds a code prefix in any case, a tag within, and only the link of an address', async () => {
      const find = (text: string) => codes({ find: { text } });
      assert.deepEqual((await find('ALPHA')).sort(), ['Alpha01', 'alpha02']);
      assert.deepEqual(await find('ang'), ['gamma05'], 'the title');
      assert.deepEqual((await find('rom')).sort(), ['Alpha01', 'alpha02', 'gamma05'], 'a tag');
      assert.deepEqual(await find('_'), [], 'an underscore is no wildcard');
      const address = { domainId: 0, code: 'beta003' };
      assert.deepEqual(await codes({ find: { text: 'https://sn.ip/beta003', address } }), ['beta003']);
      assert.deepEqual(await codes({ find: { text: 'x', address: { domainId: 9, code: 'beta003' } } }), []);
    });

    it('holds every tag given, and the default state leaves archived links out', async () => {
      assert.deepEqual(await codes({ tags: { values: ['promo', 'q2'], all: true } }), ['Alpha01']);
      await h.sql("UPDATE links SET archived = true WHERE code = 'gamma05'");
      await h.sql("UPDATE links SET disabled_at = 5, disabled_reason = 'spam' WHERE code = 'beta004'");
      await h.sql("UPDATE links SET expires_at = 500 WHERE code = 'alpha02'");
      await h.sql("UPDATE links SET max_clicks = 2, limit_used = 2 WHERE code = 'beta003'");
      const state = async (is: NonNullable<LinkQuery['state']>['is']) =>
        (await codes({ state: { is, now: NOW } })).sort();
      assert.deepEqual(await state('listed'), ['Alpha01', 'alpha02', 'beta003', 'beta004']);
      assert.deepEqual(await state('archived'), ['gamma05']);
      assert.deepEqual(await state('disabled'), ['beta004']);
      assert.deepEqual(await state('expired'), ['alpha02', 'beta003'], 'past expiry, or out of clicks');
      assert.deepEqual(await state('active'), ['Alpha01']);
      assert.deepEqual(await state('broken'), []);
      assert.equal((await state('all')).length, 5);
      const listed = await h.store.listLinks(workspaceId, { limit: 2, state: { is: 'listed', now: NOW } });
      assert.equal(listed.total, 4, "the workspace's live links less the archived one");
      const promo = await h.store.listLinks(workspaceId, {
        limit: 2,
        state: { is: 'listed', now: NOW },
        tags: { values: ['promo'], all: true },
      });
      assert.equal(promo.total, 2);
    });

    it('reads each sort both ways by keyset, down and back up, ties by id', async () => {
      const value = (link: Link, order: LinkOrder) => positionOf(link, order).value;
      for (const order of ['created', 'clicks', 'last_click', 'title'] as const)
        for (const ascending of [false, true]) {
          const sign = ascending ? 1 : -1;
          const expected = [...made.values()]
            .sort((a, b) => {
              const [x, y] = [value(a, order), value(b, order)];
              return sign * (x < y ? -1 : x > y ? 1 : a.id - b.id);
            })
            .map((link) => link.code);
          const query = { order, ascending, limit: 2 };
          const pages: Link[][] = [];
          let page = await h.store.listLinks(workspaceId, query);
          pages.push(page.links);
          while (page.more) {
            const last = page.links.at(-1) as Link;
            page = await h.store.listLinks(workspaceId, { ...query, after: positionOf(last, order) });
            pages.push(page.links);
          }
          const label = `${order} ${ascending ? 'asc' : 'desc'}`;
          assert.deepEqual(
            pages.flat().map((link) => link.code),
            expected,
            label,
          );
          const third = pages[2]?.[0] as Link;
          const back = await h.store.listLinks(workspaceId, { ...query, before: positionOf(third, order) });
          assert.deepEqual(
            back.links.map((link) => link.code),
            expected.slice(2, 4),
            `${label}: the page before the third`,
          );
          assert.equal(back.more, true, `${label}: more above`);
        }
    });

    it('lists only the links of a domain', async () => {
      await h.sql(
        `INSERT INTO domains (id, host, workspace_id, shared, verification_token, verified_at, https, created_at)
         VALUES (7, 'brand.example', ?, false, 't', 1, true, 1)`,
        workspaceId,
      );
      await h.sql("UPDATE links SET domain_id = 7 WHERE code = 'beta004'");
      assert.deepEqual(await codes({ domainId: 7 }), ['beta004']);
      assert.equal((await codes({ domainId: 0 })).length, 4);
    });
  });
}

onBothStores('snip-list-', (name, open) => linkListContract(`on ${name}`, open));
