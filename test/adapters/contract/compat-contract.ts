/**
 * What the compatibility APIs read of a store (docs/api.md §15): listings by offset, several tags,
 * dates and other orders; tags as things of their own; raw visits one by one; a workspace's main
 * key without its text. Run by runStoreContract on every adapter, against the ports only.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Link, NewLink } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';

const HOUR = 3_600_000;
const D1 = Date.UTC(2024, 2, 1);

export function runCompatContract(store: () => Store): void {
  /** Links on one new account, created in order (one ms apart) with what each override says. */
  async function givenLinks(email: string, overrides: Array<Partial<NewLink>>): Promise<Link[]> {
    const plan = await store().upsertPlan(planInput());
    const account = await givenAccount(store(), email, plan);
    const links: Link[] = [];
    for (const [i, fields] of overrides.entries()) {
      const result = await store().insertLinkWithinQuota(
        newLink(account.id, `https://example.com/${i}`, fields),
      );
      assert.equal(result.kind, 'created');
      links.push(result.link);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return links;
  }

  const codes = (links: readonly Link[]) => links.map((link) => link.code);

  describe('compatibility reads', () => {
    it('lists by offset in any order, with several tags, dates and the max-clicks filter', async () => {
      const links = await givenLinks('list@example.com', [
        { title: 'Bravo', tags: ['x', 'y'] },
        { title: 'alpha', tags: ['x'] },
        { title: 'Charlie', tags: ['y'], guards: { maxClicks: 5 } },
        { title: 'delta' },
      ]);
      const [a, b, c, d] = links as [Link, Link, Link, Link];
      const account = a.workspaceId;
      const page = await store().listLinks(account, { limit: 2, offset: 1, counted: true });
      assert.deepEqual(codes(page.links), codes([c, b]));
      assert.equal(page.total, 4);
      assert.equal(page.more, true);
      const byCode = await store().listLinks(account, { limit: 10, order: 'code', ascending: true });
      assert.deepEqual(codes(byCode.links), codes(links).sort());
      const byUrl = await store().listLinks(account, { limit: 10, order: 'long_url' });
      assert.deepEqual(codes(byUrl.links), codes([d, c, b, a]));
      const any = await store().listLinks(account, { limit: 10, tags: { values: ['x', 'y'], all: false } });
      assert.deepEqual(codes(any.links), codes([c, b, a]));
      const all = await store().listLinks(account, {
        limit: 10,
        tags: { values: ['x', 'y'], all: true },
        counted: true,
      });
      assert.deepEqual(codes(all.links), codes([a]));
      assert.equal(all.total, 1);
      const dated = await store().listLinks(account, {
        limit: 10,
        created: { from: b.createdAt.getTime(), to: c.createdAt.getTime() },
      });
      assert.deepEqual(codes(dated.links), codes([c, b]));
      await store().addClicks([{ linkId: c.id, day: '2024-03-01', clicks: 5, botHits: 0 }]);
      const open = await store().listLinks(account, { limit: 10, belowMaxClicks: true });
      assert.deepEqual(codes(open.links), codes([d, b, a]));
      const found = await store().listLinks(account, { limit: 10, search: d.code, searchCodesAndTags: true });
      assert.deepEqual(codes(found.links), codes([d]));
      const byTag = await store().listLinks(account, { limit: 10, search: 'Y', searchCodesAndTags: true });
      assert.deepEqual(codes(byTag.links), codes([c, a]));
      const plain = await store().listLinks(account, { limit: 10, search: d.code });
      assert.deepEqual(plain.links, []);
    });

    it('counts, renames and deletes tags of live links only, within the workspace', async () => {
      const [a, b, gone] = await givenLinks('tags@example.com', [
        { tags: ['news', 'sale'] },
        { tags: ['news'] },
        { tags: ['old'] },
      ]);
      const [other] = await givenLinks('other@example.com', [{ tags: ['news'] }]);
      assert.ok(a && b && gone && other);
      assert.equal(await store().deleteLink(a.workspaceId, 0, gone.code), true);
      await store().addClicks([
        { linkId: a.id, day: '2024-03-01', clicks: 3, botHits: 1 },
        { linkId: b.id, day: '2024-03-01', clicks: 2, botHits: 0 },
      ]);
      assert.deepEqual(await store().tagStats(a.workspaceId), [
        { tag: 'news', links: 2, clicks: 5, botHits: 1 },
        { tag: 'sale', links: 1, clicks: 3, botHits: 1 },
      ]);
      assert.deepEqual(
        (await store().tagStats(a.workspaceId, 'AL')).map((stat) => stat.tag),
        ['sale'],
      );
      assert.equal(await store().renameTag(a.workspaceId, 'nothing', 'else'), 'missing');
      assert.equal(await store().renameTag(a.workspaceId, 'news', 'sale'), 'taken');
      assert.equal(await store().renameTag(a.workspaceId, 'news', 'press'), 'renamed');
      assert.deepEqual((await store().tagsOf([a.id, b.id, other.id])).get(b.id), ['press']);
      assert.deepEqual((await store().tagsOf([other.id])).get(other.id), ['news']);
      assert.equal(await store().deleteTags(a.workspaceId, ['press', 'sale', 'press']), 2);
      assert.deepEqual(await store().tagStats(a.workspaceId), []);
      assert.deepEqual((await store().tagsOf([other.id])).get(other.id), ['news']);
    });

    it('reads raw visits newest first by link, tag, domain and time, with their count', async () => {
      const [a, b] = await givenLinks('visits@example.com', [{ tags: ['t'] }, {}]);
      const [c] = await givenLinks('stranger@example.com', [{ tags: ['t'] }]);
      assert.ok(a && b && c);
      const events = [
        clickEvent(a, D1 + HOUR, '00000000000000a1', { referrer: 'example.com', country: 'DE' }),
        clickEvent(a, D1 + 3 * HOUR, '00000000000000a2'),
        clickEvent(b, D1 + 2 * HOUR, '00000000000000a3', { browser: 'Firefox' }),
        clickEvent(c, D1 + 2 * HOUR, '00000000000000a4'),
      ];
      await store().addClicks(
        [
          { linkId: a.id, day: '2024-03-01', clicks: 2, botHits: 0 },
          { linkId: b.id, day: '2024-03-01', clicks: 1, botHits: 0 },
          { linkId: c.id, day: '2024-03-01', clicks: 1, botHits: 0 },
        ],
        { events, visitors: [], bots: [] },
      );
      const all = await store().listVisits(a.workspaceId, { limit: 2, offset: 0 });
      assert.equal(all.total, 3);
      assert.deepEqual(
        all.visits.map((visit) => [visit.linkId, visit.at]),
        [
          [a.id, D1 + 3 * HOUR],
          [b.id, D1 + 2 * HOUR],
        ],
      );
      const ofA = await store().listVisits(a.workspaceId, { linkId: a.id, limit: 10, offset: 1 });
      assert.equal(ofA.total, 2);
      assert.deepEqual(ofA.visits, [
        {
          linkId: a.id,
          code: a.code,
          domainId: 0,
          at: D1 + HOUR,
          referrer: 'example.com',
          country: 'DE',
          device: 'desktop',
          os: 'Windows',
          browser: 'Chrome',
          language: 'en',
          source: 'link',
        },
      ]);
      const tagged = await store().listVisits(a.workspaceId, { tag: 't', limit: 10, offset: 0 });
      assert.deepEqual(
        tagged.visits.map((visit) => visit.linkId),
        [a.id, a.id],
      );
      const timed = await store().listVisits(a.workspaceId, {
        from: D1 + 2 * HOUR,
        to: D1 + 2 * HOUR,
        limit: 10,
        offset: 0,
      });
      assert.deepEqual(
        timed.visits.map((visit) => visit.linkId),
        [b.id],
      );
      const onDomain = await store().listVisits(a.workspaceId, { domainId: 0, limit: 10, offset: 0 });
      assert.equal(onDomain.total, 3);
      assert.equal(
        (await store().listVisits(a.workspaceId, { domainId: 99, limit: 10, offset: 0 })).total,
        0,
      );
    });

    it("finds a workspace's main key owner as a presented key would", async () => {
      const plan = await store().upsertPlan(planInput());
      const account = await givenAccount(store(), 'main@example.com', plan);
      assert.equal(await store().findMainKeyOwner(account.id), undefined);
      const key = await store().replaceMainKey(account.id, 'sk_main', Buffer.alloc(32, 7), null);
      const owner = await store().findMainKeyOwner(account.id);
      assert.equal(owner?.keyId, key.id);
      assert.equal(owner?.workspaceId, account.id);
      assert.deepEqual(owner, await store().findKeyByHash(Buffer.alloc(32, 7)));
    });
  });
}
