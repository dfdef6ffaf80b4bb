/**
 * The domains migration (011) without loss (docs/api.md §12): a store made by the migrations up to
 * 010 and holding links — grouped, tagged, clicked, one deleted — is migrated, then read back
 * through the store: every link is on the default domain (id 0) with its id, counts, group and
 * tags, found by its code there, its code still issued there, its clicks counted as the old release
 * counted them; and a domain added afterwards holds
 * the same codes as links of its own. On SQLite always, on PostgreSQL when TEST_DATABASE_URL is set
 * (a schema of its own, dropped afterwards).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import { DIMENSIONS, type StatsRange } from '../../../src/core/analytics/model.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import {
  linkRows,
  type OldDatabase,
  oldClicks,
  oldPostgres,
  oldSqlite,
  oldWorkspace,
  type Row,
} from '../../fixtures/old-database.ts';
import { newLink } from './store-contract.ts';

const DAY = 86_400_000;
const D1 = Date.UTC(2024, 2, 1);
const DAYS: StatsRange = { from: D1, to: D1 + 2 * DAY, interval: 'day' };
const LINK_COLUMNS = 'id, code, group_id, long_url, url_hash, clicks, bot_hits, deleted_at';

interface OldLink {
  id: number;
  code: string;
  url: string;
  tags: string[];
}

interface Seed {
  workspaceId: number;
  groupId: number;
  links: { grouped: OldLink; tagged: OldLink; deleted: OldLink };
}

/** Everything by SQL, as release 010 wrote it: the store now writes columns 010 lacks or names otherwise. */
async function seedOldRows(old: OldDatabase): Promise<Seed> {
  const workspace = { id: await oldWorkspace(old) };
  const [group] = await old.run(
    "INSERT INTO groups (account_id, name, api_id, created_at) VALUES (?, 'Work', 'work', 0) RETURNING id",
    workspace.id,
  );
  const groupId = Number(group?.id);
  const at = Date.UTC(2024, 0, 15);
  const link = async (
    code: string,
    url: string,
    tags: string[],
    options: { group?: number; deleted?: boolean },
  ) => {
    const input = newLink(workspace.id, url);
    const [row] = await old.run(
      `INSERT INTO links (code, account_id, group_id, long_url, normalized_url, url_hash, title, clicks,
          bot_hits, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, '', 41, 3, ?, ?) RETURNING id`,
      code,
      workspace.id,
      options.group ?? null,
      url,
      url,
      input.urlHash,
      at,
      options.deleted ? at : null,
    );
    const id = Number(row?.id);
    for (const tag of tags) await old.run('INSERT INTO link_tags (link_id, tag) VALUES (?, ?)', id, tag);
    return { id, code, url, tags };
  };
  const links = {
    grouped: await link('old0001', 'https://example.com/one', [], { group: groupId }),
    tagged: await link('old0002', 'https://example.com/two', ['news', 'spring'], {}),
    deleted: await link('old0003', 'https://example.com/three', ['news'], { deleted: true }),
  };
  await old.run('UPDATE workspaces SET link_count = 2 WHERE id = ?', workspace.id);
  await oldClicks(old, [
    { linkId: links.grouped.id, day: '2024-03-01', clicks: 2, botHits: 1 },
    { linkId: links.tagged.id, day: '2024-03-02', clicks: 1, botHits: 0 },
  ]);
  return { workspaceId: workspace.id, groupId, links };
}

/** `skip`: why the suite does not run here (its database is not given), or false. */
function describeMigration(
  name: string,
  makeOld: () => Promise<OldDatabase>,
  skip: string | false = false,
): void {
  describe(`the domains migration on ${name}, from a store of the workspaces release`, { skip }, () => {
    let old: OldDatabase;
    let seed: Seed;
    let linksBefore: Row[];
    let applied: string[];
    let store: Store;

    before(async () => {
      old = await makeOld();
      seed = await seedOldRows(old);
      linksBefore = await linkRows(old, LINK_COLUMNS);
      store = old.open();
      applied = await store.migrate();
    });

    after(async () => {
      await store?.close();
      await old?.remove();
    });

    it('applies 011-domains and what follows it', async () => {
      const since011 = (await loadMigrations(old.dialect)).filter((migration) => migration.name >= '011');
      assert.equal(applied[0], '011-domains');
      assert.deepEqual(
        applied,
        since011.map((migration) => migration.name),
      );
    });

    it('puts every link on the default domain, with its id, code, counts and group', async () => {
      assert.deepEqual(await linkRows(old, LINK_COLUMNS), linksBefore);
      const domains = await old.run('SELECT DISTINCT domain_id FROM links');
      assert.deepEqual(
        domains.map((row) => Number(row.domain_id)),
        [0],
      );
      assert.deepEqual(
        (await store.listDomains()).map((domain) => [domain.id, domain.host]),
        [[0, '']],
      );
      const { grouped, tagged, deleted } = seed.links;
      for (const link of [grouped, tagged]) {
        const found = await store.findLinkByCode(0, link.code);
        const row = linksBefore.find((before) => before.code === link.code);
        assert.deepEqual(
          [found?.id, found?.domainId, found?.longUrl, found?.clicks, found?.botHits],
          [link.id, 0, link.url, Number(row?.clicks), Number(row?.bot_hits)],
        );
      }
      assert.equal((await store.findLinkByCode(0, grouped.code))?.clicks, 43);
      assert.equal((await store.findLinkByCode(0, grouped.code))?.groupId, seed.groupId);
      assert.equal(await store.findLinkByCode(0, deleted.code), undefined);
      assert.equal(await store.isCodeIssued(0, deleted.code), true);
      assert.equal(await store.countLiveLinks(seed.workspaceId), 2);
      assert.deepEqual([...(await store.countLinksPerDomain(seed.workspaceId))], [[0, 2]]);
    });

    it('keeps the clicks of each day, of each link and of the workspace', async () => {
      const { grouped, tagged } = seed.links;
      assert.deepEqual(await store.dailyClicksOfLink(grouped.id, '2024-03-01', '2024-03-02'), [
        { day: '2024-03-01', clicks: 2 },
      ]);
      assert.deepEqual(await store.dailyClicksOfLink(tagged.id, '2024-03-01', '2024-03-02'), [
        { day: '2024-03-02', clicks: 1 },
      ]);
      assert.deepEqual(await store.stats({ workspaceId: seed.workspaceId }, DAYS), {
        totals: { clicks: 3, uniqueVisitors: 0, botHits: 1, qrScans: 0 },
        series: [
          { t: D1, clicks: 2, uniqueVisitors: 0 },
          { t: D1 + DAY, clicks: 1, uniqueVisitors: 0 },
        ],
        breakdowns: Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, []])),
        // Clicks per long URL, for the UTM breakdowns: none of these links carries a UTM parameter.
        urls: [],
      });
    });

    it('keeps the tags of every link, the deleted one included', async () => {
      const { grouped, tagged, deleted } = seed.links;
      const tags = await store.tagsOf([grouped.id, tagged.id, deleted.id]);
      assert.deepEqual(
        [...tags].sort(([a], [b]) => a - b),
        [
          [tagged.id, ['news', 'spring']],
          [deleted.id, ['news']],
        ],
      );
    });

    it('keeps the rules on the default domain: codes issued, one live link per URL', async () => {
      const { tagged, deleted } = seed.links;
      const reuse = (code: string, url: string) =>
        store.insertLinkWithinQuota(newLink(seed.workspaceId, url, { code, domainId: 0 }));
      assert.deepEqual(await reuse(deleted.code, 'https://example.com/new'), { kind: 'code-taken' });
      const duplicate = await reuse('fresh01', tagged.url);
      assert.equal(duplicate.kind, 'duplicate');
      assert.equal(duplicate.kind === 'duplicate' && duplicate.existing.id, tagged.id);
    });

    it('lets a domain added afterwards hold the same codes, its links apart', async () => {
      const added = await store.addDomain({
        host: 'go.acme.com',
        workspaceId: seed.workspaceId,
        shared: false,
        verificationToken: 'token',
        verified: true,
      });
      assert.equal(added.kind, 'added');
      if (added.kind !== 'added') return;
      const domainId = added.domain.id;
      assert.ok(domainId > 0);
      for (const link of Object.values(seed.links)) {
        assert.equal(await store.isCodeIssued(domainId, link.code), false, link.code);
        const made = await store.insertLinkWithinQuota(
          newLink(seed.workspaceId, link.url, { code: link.code, domainId }),
        );
        assert.equal(made.kind, 'created', link.code);
        assert.equal((await store.findLinkByCode(domainId, link.code))?.domainId, domainId);
      }
      assert.equal((await store.findLinkByCode(0, seed.links.grouped.code))?.id, seed.links.grouped.id);
      assert.equal(await store.findLinkByCode(0, seed.links.deleted.code), undefined);
      assert.deepEqual(
        [...(await store.countLinksPerDomain(seed.workspaceId))].sort(([a], [b]) => a - b),
        [
          [0, 2],
          [domainId, 3],
        ],
      );
    });
  });
}

describeMigration('SQLite', () => oldSqlite('011', '010-workspaces'));

const databaseUrl = process.env.TEST_DATABASE_URL;
describeMigration(
  'PostgreSQL',
  () => oldPostgres(databaseUrl as string, '011', '010-workspaces'),
  databaseUrl ? false : 'TEST_DATABASE_URL is not set',
);
