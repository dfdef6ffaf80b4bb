/**
 * The console's figures (SPEC §22) on both stores: totals, per-day counts, the newest links with
 * their workspace and owner, the top workspaces and each workspace's links and clicks.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Plan } from '../../../src/core/entities.ts';
import { givenAccount, newLink, planInput } from './store-contract.ts';
import { onBothStores, type StoreHarness } from './store-harness.ts';

const DAY = 86_400_000;

onBothStores('snip-console-', (name, open) => {
  describe(`${name} console figures`, () => {
    let h: StoreHarness;
    let plan: Plan;
    beforeEach(async () => {
      h = await open();
      plan = await h.store.upsertPlan(planInput({ urlQuota: 1000 }));
    });
    afterEach(() => h.close());

    const link = async (workspaceId: number, url: string) => {
      const result = await h.store.insertLinkWithinQuota(newLink(workspaceId, url));
      if (result.kind !== 'created') throw new Error(`no link to ${url}`);
      return result.link;
    };
    const clicks = (workspaceId: number, day: number, n: number) =>
      h.sql(
        'INSERT INTO workspace_daily_clicks (workspace_id, day, clicks) VALUES (?, ?, ?)',
        workspaceId,
        day,
        n,
      );

    it('totals users, workspaces, live links and the clicks of 1, 7 and 30 days', async () => {
      const today = Math.floor(Date.now() / DAY);
      const ada = await givenAccount(h.store, 'ada@example.com', plan);
      const bob = await givenAccount(h.store, 'bob@example.com', plan);
      await link(ada.id, 'https://example.com/a');
      const gone = await link(bob.id, 'https://example.com/b');
      await link(bob.id, 'https://example.com/c');
      await h.store.deleteLink(bob.id, 0, gone.code);
      await clicks(ada.id, today, 3);
      await clicks(bob.id, today - 6, 5);
      await clicks(bob.id, today - 29, 7);
      await clicks(ada.id, today - 30, 100);
      assert.deepEqual(await h.store.consoleTotals(today), {
        users: 2,
        workspaces: 2,
        links: 2,
        clicksToday: 3,
        clicks7Days: 8,
        clicks30Days: 15,
      });
      const perDay = await h.store.newLinksPerDay(today - 29);
      assert.deepEqual(perDay, [{ day: today, count: 3 }]);
      assert.deepEqual(await h.store.signupsPerDay(today - 29), [{ day: today, count: 2 }]);
      assert.deepEqual(await h.store.newLinksPerDay(today + 1), []);
    });

    it('names each newest link’s workspace and owner, newest first, live links only', async () => {
      const ada = await givenAccount(h.store, 'ada@example.com', plan);
      const team = await h.store.createWorkspace('acme', 'Acme', plan.id, ada.personalOf ?? 0);
      if (team.kind !== 'created') throw new Error('no team');
      const first = await link(ada.id, 'https://example.com/a');
      const second = await link(team.workspace.id, 'https://example.com/b');
      const deleted = await link(ada.id, 'https://example.com/c');
      await h.store.deleteLink(ada.id, 0, deleted.code);
      const newest = await h.store.newestLinks(50);
      assert.deepEqual(
        newest.map(({ link, workspace }) => [link.id, workspace.slug, workspace.owner]),
        [
          [second.id, 'acme', 'ada@example.com'],
          [first.id, ada.slug, 'ada@example.com'],
        ],
      );
      assert.deepEqual(
        (await h.store.newestLinks(1)).map(({ link }) => link.id),
        [second.id],
      );
      const some = await h.store.consoleLinks([first.id, deleted.id, 999_999]);
      assert.deepEqual(
        some.map(({ link, workspace }) => [link.id, workspace.id]),
        [[first.id, ada.id]],
      );
      assert.deepEqual(await h.store.consoleLinks([]), []);
    });

    it('ranks workspaces by clicks since a day and counts each one’s links and clicks', async () => {
      const today = Math.floor(Date.now() / DAY);
      const ada = await givenAccount(h.store, 'ada@example.com', plan);
      const bob = await givenAccount(h.store, 'bob@example.com', plan);
      const cy = await givenAccount(h.store, 'cy@example.com', plan);
      await link(bob.id, 'https://example.com/b');
      await clicks(ada.id, today, 2);
      await clicks(bob.id, today, 4);
      await clicks(bob.id, today - 40, 50);
      const top = await h.store.topWorkspacesByClicks(today - 29, 10);
      assert.deepEqual(
        top.map(({ workspace, clicks }) => [workspace.slug, workspace.owner, clicks]),
        [
          [bob.slug, 'bob@example.com', 4],
          [ada.slug, 'ada@example.com', 2],
        ],
      );
      const figures = await h.store.workspaceFigures([ada.id, bob.id, cy.id], today - 29);
      assert.deepEqual(figures.get(bob.id), { links: 1, clicks: 4 });
      assert.equal((await h.store.workspaceFigures([bob.id], today - 40)).get(bob.id)?.clicks, 54);
      assert.deepEqual(figures.get(cy.id), { links: 0, clicks: 0 });
    });
  });
});
