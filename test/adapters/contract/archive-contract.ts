/**
 * The archive part of the store contract (docs/api.md §18): a link archived and shown again, still
 * found by its code, and the latest human click the flush writes on the link. Written against the
 * ports only, so the same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated,
 * empty store.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { DAY_MS, dayText } from '../../../src/core/days.ts';
import type { Link, Workspace } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { clickEvent } from '../../fixtures/click-event.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';

const VISITOR = '00000000000000a1';

export function runArchiveContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} archive contract`, () => {
    let store: Store;
    let ada: Workspace;
    beforeEach(async () => {
      store = await open();
      ada = await givenAccount(store, 'ada@example.com', await store.upsertPlan(planInput()));
    });
    afterEach(async () => {
      await store.close();
    });

    let urls = 0;
    const created = async (): Promise<Link> => {
      urls += 1;
      const result = await store.insertLinkWithinQuota(newLink(ada.id, `https://example.com/a/${urls}`));
      assert.equal(result.kind, 'created');
      return (result as { link: Link }).link;
    };
    const stored = async (link: Link): Promise<Link> => {
      const found = await store.findLinkByCode(link.domainId, link.code);
      assert.ok(found, `link ${link.code} is gone`);
      return found;
    };
    const today = () => dayText(Math.floor(Date.now() / DAY_MS));

    it('makes a link neither archived nor clicked', async () => {
      const link = await created();
      assert.equal(link.archived, false);
      assert.equal(link.lastClickedAt, null);
      assert.equal((await stored(link)).archived, false);
    });

    it('archives a link and shows it again, its code still resolving', async () => {
      const link = await created();
      const archived = await store.updateLink(ada.id, 0, link.code, { archived: true });
      assert.equal(archived.kind, 'updated');
      assert.equal((archived as { link: Link }).link.archived, true);
      const found = await stored(link);
      assert.equal(found.archived, true);
      assert.equal(found.longUrl, link.longUrl);
      const shown = await store.updateLink(ada.id, 0, link.code, { archived: false });
      assert.equal((shown as { link: Link }).link.archived, false);
      assert.equal((await stored(link)).archived, false);
    });

    it('counts the clicks of an archived link and moves its latest click', async () => {
      const link = await created();
      await store.updateLink(ada.id, 0, link.code, { archived: true });
      await store.addClicks([{ linkId: link.id, day: today(), clicks: 2, botHits: 0 }]);
      const found = await stored(link);
      assert.equal(found.clicks, 2);
      assert.equal(found.archived, true);
      assert.ok(found.lastClickedAt);
    });

    it('sets the latest click to the time the counts were handed over, without events', async () => {
      const link = await created();
      const before = Date.now();
      await store.addClicks([{ linkId: link.id, day: today(), clicks: 3, botHits: 0 }]);
      const after = Date.now();
      const at = (await stored(link)).lastClickedAt?.getTime();
      assert.ok(at !== undefined && at >= before && at <= after, `${at} not within ${before}-${after}`);
    });

    it('sets the latest click to the latest event of the link when the batch carries events', async () => {
      const [link, other] = [await created(), await created()];
      const t = Date.UTC(2024, 2, 1, 10);
      await store.addClicks(
        [
          { linkId: link.id, day: '2024-03-01', clicks: 2, botHits: 0 },
          { linkId: other.id, day: '2024-03-01', clicks: 1, botHits: 0 },
        ],
        {
          events: [
            clickEvent(link, t + 5_000, VISITOR),
            clickEvent(link, t + 9_000, VISITOR),
            clickEvent(other, t + 1_000, VISITOR),
          ],
          visitors: [],
          bots: [],
        },
      );
      assert.equal((await stored(link)).lastClickedAt?.getTime(), t + 9_000);
      assert.equal((await stored(other)).lastClickedAt?.getTime(), t + 1_000);
    });

    it('never moves the latest click back for a batch of older clicks', async () => {
      const link = await created();
      const t = Date.UTC(2024, 2, 2, 12);
      const batch = (at: number) =>
        store.addClicks([{ linkId: link.id, day: dayText(Math.floor(at / DAY_MS)), clicks: 1, botHits: 0 }], {
          events: [clickEvent(link, at, VISITOR)],
          visitors: [],
          bots: [],
        });
      await batch(t);
      await batch(t - 60_000);
      const found = await stored(link);
      assert.equal(found.clicks, 2);
      assert.equal(found.lastClickedAt?.getTime(), t);
    });

    it('keeps the latest click of a count carried past its day within that day', async () => {
      const link = await created();
      await store.addClicks([{ linkId: link.id, day: '2024-03-01', clicks: 1, botHits: 0 }]);
      assert.equal((await stored(link)).lastClickedAt?.getTime(), Date.UTC(2024, 2, 2) - 1);
    });

    it('leaves the latest click as it is for bot hits, beside a link clicked in the same batch', async () => {
      // The bots' link first: a batch whose first link has no click time.
      const bots = await created();
      const clicked = await created();
      await store.addClicks([
        { linkId: bots.id, day: today(), clicks: 0, botHits: 4 },
        { linkId: clicked.id, day: today(), clicks: 1, botHits: 0 },
      ]);
      const [b, c] = [await stored(bots), await stored(clicked)];
      assert.equal(b.botHits, 4);
      assert.equal(b.lastClickedAt, null);
      assert.ok(c.lastClickedAt);
      const earlier = c.lastClickedAt;
      await store.addClicks([{ linkId: clicked.id, day: today(), clicks: 0, botHits: 1 }]);
      assert.deepEqual((await stored(clicked)).lastClickedAt, earlier);
    });

    it('sets the latest click of totals without a day (TRACKING=off)', async () => {
      const link = await created();
      const before = Date.now();
      await store.addClicks([{ linkId: link.id, day: null, clicks: 1, botHits: 0 }]);
      const at = (await stored(link)).lastClickedAt?.getTime();
      assert.ok(at !== undefined && at >= before && at <= Date.now());
    });
  });
}
