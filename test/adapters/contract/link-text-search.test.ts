/**
 * The list's search box as text read from an index (migration 021, docs/adr/040): the same links
 * on both stores as a scan of every link finds — a code prefix, a substring of the title, the long
 * URL or a tag, case-insensitive for ASCII, `%` `_` and quotes taken literally, FTS5's operators
 * too — kept as links and tags change, in the list's order and by its cursors.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { LinkQuery } from '../../../src/core/link-query.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

const NOW = 10_000;

/** Code, title, long URL's path, tags; created in this order (the list shows the last first). */
const LINKS: Array<[string, string, string, string[]]> = [
  ['Alpha01', 'MANGO season', '/fruit/mango', ['summer-sale']],
  ['alpha02', 'say "hi" now', '/quotes', ['ab', 'cd']],
  ['beta_03', '100% sure', '/percent', []],
  ['beta-04', 'a_c and abc', '/under_score', ['été']],
  ['gamma05', 'café crème', '/caf%C3%A9', ['promo']],
  ['gamma06', 'kiwi OR mango', '/near/*', ['promo', 'q2']],
];

function textSearchContract(name: string, open: () => Promise<StoreHarness>) {
  describe(`the search box's text, ${name}`, () => {
    let h: StoreHarness;
    let workspaceId = 0;

    beforeEach(async () => {
      h = await open();
      const plan = await h.store.upsertPlan(planInput());
      workspaceId = (await givenAccount(h.store, 'ada@example.com', plan)).id;
      for (const [index, [code, title, path, tags]] of LINKS.entries()) {
        const link = newLink(workspaceId, `https://example.com${path}`, { code, title, tags });
        assert.equal((await h.store.insertLinkWithinQuota(link)).kind, 'created');
        await h.sql('UPDATE links SET created_at = ? WHERE code = ?', 1000 + index, code);
      }
    });
    afterEach(() => h.close());

    const codes = async (text: string, query: Omit<LinkQuery, 'limit'> = {}, limit = 20) =>
      (await h.store.listLinks(workspaceId, { limit, find: { text }, ...query })).links.map((l) => l.code);

    it('finds a code prefix in any case, and text within a title, a long URL or a tag', async () => {
      assert.deepEqual(await codes('ALPHA'), ['alpha02', 'Alpha01']);
      assert.deepEqual(await codes('beta_'), ['beta_03'], 'an underscore of a code, literally');
      assert.deepEqual(await codes('BETA-0'), ['beta-04']);
      assert.deepEqual(await codes('ango'), ['gamma06', 'Alpha01'], 'a title, ASCII in any case');
      assert.deepEqual(await codes('FRUIT/m'), ['Alpha01'], 'the long URL');
      assert.deepEqual(await codes('mer-sa'), ['Alpha01'], 'a tag');
      assert.deepEqual(await codes('romo'), ['gamma06', 'gamma05'], 'a tag of two links');
      assert.deepEqual(await codes('nothing like it'), []);
    });

    it('takes quotes, % and _ and FTS5 operators literally', async () => {
      assert.deepEqual(await codes('"hi"'), ['alpha02']);
      assert.deepEqual(await codes('y "h'), ['alpha02']);
      assert.deepEqual(await codes('""'), []);
      assert.deepEqual(await codes('0% s'), ['beta_03'], 'a percent sign, literally');
      assert.deepEqual(await codes('10%e'), [], 'no wildcard');
      assert.deepEqual(await codes('a_c'), ['beta-04'], 'an underscore, literally');
      assert.deepEqual(await codes('b_c'), [], 'no single-character wildcard');
      assert.deepEqual(await codes('kiwi OR mango'), ['gamma06'], 'OR as text');
      assert.deepEqual(await codes('kiwi OR apple'), []);
      assert.deepEqual(await codes('near/*'), ['gamma06']);
      assert.deepEqual(await codes('NEAR(kiwi mango)'), []);
      assert.deepEqual(await codes('title: mango'), []);
      assert.deepEqual(await codes('%C3%A9'), ['gamma05']);
    });

    it('finds text beyond ASCII as given, and one or two characters as before', async () => {
      assert.deepEqual(await codes('fé cr'), ['gamma05']);
      assert.deepEqual(await codes('été'), ['beta-04'], 'a tag beyond ASCII');
      assert.deepEqual(await codes('é'), ['gamma05', 'beta-04'], 'one character');
      assert.deepEqual(await codes('%'), ['gamma05', 'beta_03']);
      assert.deepEqual(await codes('_'), ['beta-04']);
      assert.deepEqual(await codes('"'), ['alpha02']);
      assert.deepEqual(await codes('GO'), ['gamma06', 'Alpha01']);
      assert.deepEqual(await codes('q2'), ['gamma06']);
    });

    it('finds no text spanning two tags', async () => {
      assert.deepEqual(await codes('ab'), ['beta-04', 'alpha02']);
      // SQLite's trigram table holds a link's tags one a line: a match across them is no tag's text.
      assert.deepEqual(await codes('ab\ncd'), []);
      assert.deepEqual(await codes('b\ncd'), []);
    });

    it('follows changes of the title, the long URL and the tags, and leaves archived and deleted links out', async () => {
      const update = (code: string, change: Parameters<typeof h.store.updateLink>[3]) =>
        h.store.updateLink(workspaceId, 0, code, change);
      await update('gamma05', { title: 'papaya', tags: ['winter'] });
      assert.deepEqual(await codes('crème'), []);
      assert.deepEqual(await codes('apaya'), ['gamma05']);
      assert.deepEqual(await codes('inter'), ['gamma05']);
      assert.deepEqual(await codes('romo'), ['gamma06']);
      const url = 'https://example.com/elsewhere';
      await update('gamma05', { target: { longUrl: url, normalizedUrl: url, urlHash: 'b'.repeat(64) } });
      assert.deepEqual(await codes('lsewhe'), ['gamma05']);
      assert.deepEqual(await codes('C3%A9'), []);
      await update('gamma06', { archived: true });
      const listed = { state: { is: 'listed', now: NOW } } as const;
      assert.deepEqual(await codes('ango', listed), ['Alpha01'], 'the default list leaves the archived out');
      const all = { state: { is: 'all', now: NOW } } as const;
      assert.deepEqual(await codes('ango', all), ['gamma06', 'Alpha01']);
      assert.equal(await h.store.deleteLink(workspaceId, 0, 'Alpha01'), true);
      assert.deepEqual(await codes('ango', all), ['gamma06']);
      assert.deepEqual(await codes('alpha', all), ['alpha02']);
    });

    it('keeps the order, the cursors and the total', async () => {
      const query = { order: 'created' as const, ascending: true, counted: true };
      const page = (after?: { value: number; id: number }) =>
        h.store.listLinks(workspaceId, { ...query, limit: 2, after, find: { text: 'ango' } });
      const one = await page();
      assert.deepEqual(
        one.links.map((l) => l.code),
        ['Alpha01', 'gamma06'],
      );
      assert.equal(one.total, 2);
      assert.equal(one.more, false);
      const promo = await h.store.listLinks(workspaceId, { ...query, limit: 1, find: { text: 'PROMO' } });
      assert.deepEqual(
        promo.links.map((l) => l.code),
        ['gamma05'],
      );
      assert.equal(promo.more, true);
      const last = promo.links[0];
      assert.ok(last);
      const next = await h.store.listLinks(workspaceId, {
        ...query,
        limit: 1,
        find: { text: 'PROMO' },
        after: { value: last.createdAt.getTime(), id: last.id },
      });
      assert.deepEqual(
        next.links.map((l) => l.code),
        ['gamma06'],
      );
      assert.equal(next.more, false);
    });
  });
}

onBothStores('snip-text-search-', textSearchContract);
