/**
 * Migration 016, the first written once for both dialects: a database as release 015 left it,
 * holding a workspace's links (grouped, tagged, limited, deleted, on the default and a custom
 * domain), its group, its key, raw click events and daily aggregates, is migrated through a store.
 * Nothing is lost: every row of every table that named `account_id` is there, the column now
 * `workspace_id`; and the store answers from the renamed columns what those rows hold. On SQLite
 * always, on PostgreSQL when TEST_DATABASE_URL is set.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { type OldDatabase, oldPlan, oldPostgres, oldSqlite, type Row } from '../../fixtures/old-database.ts';
import { newLink } from './store-contract.ts';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const D1 = Date.UTC(2026, 2, 1);
const DAY_NUMBER = D1 / DAY;
const KEY_HASH = createHash('sha256').update('snip_old_key').digest();

/** The tables whose `account_id` 016 renames: their names before and after, an order for comparing rows. */
const RENAMED: ReadonlyArray<[before: string, after: string, order: string]> = [
  ['links', 'links', 'id'],
  ['groups', 'groups', 'id'],
  ['api_keys', 'api_keys', 'id'],
  ['click_events', 'click_events', 'link_id, at'],
  ['account_daily_clicks', 'workspace_daily_clicks', 'day'],
  ['account_daily_stats', 'workspace_daily_stats', 'day, dimension, value'],
];

interface Seed {
  workspaceId: number;
  domainId: number;
  groupId: number;
  codes: { grouped: string; custom: string; deleted: string };
}

const sha = (url: string) => createHash('sha256').update(url).digest('hex');

/** What release 015 held, written as it wrote it (the store now writes the renamed columns). */
async function seed015(old: OldDatabase): Promise<Seed> {
  const bool = (value: boolean) => (old.dialect === 'postgres' ? String(value) : value ? '1' : '0');
  const plan = await oldPlan(old);
  const [user] = await old.run(
    `INSERT INTO users (email, email_verified, operator, created_at) VALUES ('ada@example.com', ${bool(true)}, ${bool(false)}, 0) RETURNING id`,
  );
  const userId = Number(user?.id);
  const [workspace] = await old.run(
    `INSERT INTO workspaces (slug, name, plan_id, personal_of, link_count, key_count, created_at)
      VALUES ('ada', 'Ada', ?, ?, 2, 1, 0) RETURNING id`,
    plan.id,
    userId,
  );
  const workspaceId = Number(workspace?.id);
  await old.run(
    "INSERT INTO memberships (workspace_id, user_id, role, joined_at) VALUES (?, ?, 'owner', 0)",
    workspaceId,
    userId,
  );
  const [domain] = await old.run(
    `INSERT INTO domains (host, workspace_id, shared, verification_token, verified_at, created_at)
      VALUES ('go.example.com', ?, ${bool(false)}, 'token', 1, 0) RETURNING id`,
    workspaceId,
  );
  const domainId = Number(domain?.id);
  const [group] = await old.run(
    "INSERT INTO groups (account_id, name, api_id, created_at) VALUES (?, 'Work', 'work', 0) RETURNING id",
    workspaceId,
  );
  const groupId = Number(group?.id);
  const link = async (
    code: string,
    url: string,
    extra: { domain?: number; group?: number; deleted?: boolean },
  ) => {
    const [row] = await old.run(
      `INSERT INTO links (code, domain_id, account_id, group_id, long_url, normalized_url, url_hash, title,
          clicks, bot_hits, created_at, deleted_at, max_clicks)
        VALUES (?, ?, ?, ?, ?, ?, ?, 'Old', 7, 1, ?, ?, ?) RETURNING id`,
      code,
      extra.domain ?? 0,
      workspaceId,
      extra.group ?? null,
      url,
      url,
      sha(url),
      D1 - DAY,
      extra.deleted ? D1 : null,
      extra.domain ? 100 : null,
    );
    return Number(row?.id);
  };
  const grouped = await link('old0001', 'https://example.com/one', { group: groupId });
  const custom = await link('old0002', 'https://example.com/two', { domain: domainId });
  await link('old0003', 'https://example.com/three', { deleted: true });
  await old.run("INSERT INTO link_tags (link_id, tag) VALUES (?, 'spring')", custom);
  await old.run(
    `INSERT INTO api_keys (account_id, prefix, hash, created_at, main, created_by)
      VALUES (?, 'snip_old', ?, 0, 1, ?)`,
    workspaceId,
    KEY_HASH,
    userId,
  );
  for (const [linkId, hour, country] of [
    [grouped, 9, 'DE'],
    [grouped, 10, 'DE'],
    [custom, 10, 'FR'],
  ] as const) {
    await old.run(
      `INSERT INTO click_events (link_id, account_id, at, referrer, country, device, os, browser, language, source, visitor)
        VALUES (?, ?, ?, '', ?, 'desktop', 'Linux', 'Firefox', 'de', 'link', 0)`,
      linkId,
      workspaceId,
      D1 + hour * HOUR,
      country,
    );
  }
  await old.run(
    'INSERT INTO link_daily_clicks (link_id, day, clicks) VALUES (?, ?, 2), (?, ?, 1)',
    grouped,
    DAY_NUMBER,
    custom,
    DAY_NUMBER,
  );
  await old.run(
    'INSERT INTO account_daily_clicks (account_id, day, clicks) VALUES (?, ?, 3)',
    workspaceId,
    DAY_NUMBER,
  );
  for (const [country, clicks] of [
    ['DE', 2],
    ['FR', 1],
  ] as const) {
    await old.run(
      "INSERT INTO account_daily_stats (account_id, day, dimension, value, clicks) VALUES (?, ?, 'country', ?, ?)",
      workspaceId,
      DAY_NUMBER,
      country,
      clicks,
    );
  }
  return {
    workspaceId,
    domainId,
    groupId,
    codes: { grouped: 'old0001', custom: 'old0002', deleted: 'old0003' },
  };
}

/** Every row of each renamed table, the column under its old name, so before and after compare. */
async function renamedRows(old: OldDatabase, migrated: boolean): Promise<Record<string, Row[]>> {
  const column = migrated ? 'workspace_id' : 'account_id';
  const rows: Record<string, Row[]> = {};
  for (const [before, after, order] of RENAMED) {
    const read = await old.run(`SELECT * FROM ${migrated ? after : before} ORDER BY ${order}`);
    rows[before] = read.map(({ [column]: owner, ...rest }) => ({ ...rest, owner: Number(owner) }));
  }
  return rows;
}

function describeMigration(name: string, makeOld: () => Promise<OldDatabase>): void {
  describe(`migration 016 on ${name}, from a store of release 015`, () => {
    let old: OldDatabase;
    let seed: Seed;
    let rowsBefore: Record<string, Row[]>;
    let applied: string[];
    let store: Store;

    before(async () => {
      old = await makeOld();
      seed = await seed015(old);
      rowsBefore = await renamedRows(old, false);
      store = old.open();
      applied = await store.migrate();
    });

    after(async () => {
      await store?.close();
      await old?.remove();
    });

    it('applies 016-workspace-id and what follows it, written once', async () => {
      const since016 = (await loadMigrations(old.dialect)).filter((migration) => migration.name >= '016');
      assert.equal(applied[0], '016-workspace-id');
      assert.deepEqual(
        applied,
        since016.map((migration) => migration.name),
      );
    });

    it('loses no row: every table keeps its rows, the owner now in workspace_id', async () => {
      // Columns a later migration adds (with their defaults) are left out of the comparison.
      const after = await renamedRows(old, true);
      const asBefore = Object.fromEntries(
        Object.entries(after).map(([table, rows]) => {
          const columns = Object.keys(rowsBefore[table]?.[0] ?? {});
          return [
            table,
            rows.map((row) => Object.fromEntries(columns.map((column) => [column, row[column]]))),
          ];
        }),
      );
      // Migration 026 gives every main key the scope it adds (the main key has every scope).
      const granted = (row: Row) =>
        Number(row.main) === 1 ? { ...row, scopes: `${String(row.scopes)} conversions:write` } : row;
      assert.deepEqual(asBefore, { ...rowsBefore, api_keys: (rowsBefore.api_keys ?? []).map(granted) });
      for (const [before, after] of RENAMED) {
        assert.ok((rowsBefore[before] ?? []).length > 0, `${before} held rows`);
        const [row] = await old.run(`SELECT * FROM ${after}`);
        assert.equal(row && 'account_id' in row, false, `${after} has no account_id left`);
      }
    });

    it('answers the links, the group and the key from the renamed columns', async () => {
      const { workspaceId, domainId, groupId, codes } = seed;
      const grouped = await store.findLinkByCode(0, codes.grouped);
      assert.deepEqual([grouped?.workspaceId, grouped?.groupId, grouped?.clicks], [workspaceId, groupId, 7]);
      const custom = await store.findLinkOfWorkspace(workspaceId, domainId, codes.custom);
      assert.deepEqual([custom?.domainId, custom?.maxClicks], [domainId, 100]);
      assert.equal(await store.findLinkByCode(0, codes.deleted), undefined);
      assert.equal(await store.isCodeIssued(0, codes.deleted), true);
      assert.equal(await store.countLiveLinks(workspaceId), 2);
      const page = await store.listLinks(workspaceId, { limit: 10, tags: { values: ['spring'], all: true } });
      assert.deepEqual(
        page.links.map((link) => link.code),
        [codes.custom],
      );
      assert.equal((await store.findGroupOfWorkspace(workspaceId, { apiId: 'work' }))?.id, groupId);
      assert.equal((await store.findKeyByHash(KEY_HASH))?.workspaceId, workspaceId);
      assert.equal((await store.findMainKey(workspaceId))?.prefix, 'snip_old');
    });

    it('answers the clicks and stats from the renamed columns', async () => {
      const { workspaceId } = seed;
      assert.deepEqual(await store.dailyClicksOfWorkspace(workspaceId, '2026-03-01', '2026-03-01'), [
        { day: '2026-03-01', clicks: 3 },
      ]);
      const top = await store.topLinksOfWorkspace(workspaceId, '2026-03-01', '2026-03-01', 5);
      assert.deepEqual(
        top.map((link) => [link.code, link.clicks]),
        [
          [seed.codes.grouped, 2],
          [seed.codes.custom, 1],
        ],
      );
      const daily = await store.stats({ workspaceId }, { from: D1, to: D1 + DAY, interval: 'day' });
      assert.equal(daily.totals.clicks, 3);
      assert.deepEqual(
        daily.breakdowns.country.map((row) => [row.value, row.clicks]),
        [
          ['DE', 2],
          ['FR', 1],
        ],
      );
      const hourly = await store.stats({ workspaceId }, { from: D1, to: D1 + DAY, interval: 'hour' });
      assert.equal(hourly.totals.clicks, 3, 'the raw events, read by their workspace');
    });

    it('writes new rows under the renamed columns, within the same counts', async () => {
      const made = await store.insertLinkWithinQuota(newLink(seed.workspaceId, 'https://example.com/new'));
      assert.equal(made.kind, 'created');
      assert.equal(made.kind === 'created' && made.link.workspaceId, seed.workspaceId);
      assert.equal(await store.countLiveLinks(seed.workspaceId), 3);
      const duplicate = await store.insertLinkWithinQuota(
        newLink(seed.workspaceId, 'https://example.com/one'),
      );
      assert.equal(duplicate.kind, 'duplicate', 'the live-URL index followed the column');
    });
  });
}

describeMigration('SQLite', () => oldSqlite('016', '015-plans-and-billing'));

const databaseUrl = process.env.TEST_DATABASE_URL;
describe('migration 016 on PostgreSQL', {
  skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
}, () => {
  if (databaseUrl)
    describeMigration('PostgreSQL', () => oldPostgres(databaseUrl, '016', '015-plans-and-billing'));
});
