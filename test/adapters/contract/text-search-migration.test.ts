/**
 * Migration 021: links made before it are found by text after it (SQLite's trigram table is
 * backfilled, PostgreSQL's indexes built), and the listing reads the index, not every link. On
 * PostgreSQL a user who may not create pg_trgm still migrates, and finds the same links by a scan.
 * PostgreSQL cases run in a database of their own: the extension lives in one schema of a database.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import postgres from 'postgres';
import { openPostgresStore } from '../../../src/adapters/postgres/store.ts';
import { linkListing, type TextIndex } from '../../../src/adapters/sql/link-list.ts';
import type { LinkQuery } from '../../../src/core/link-query.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { type OldDatabase, oldPostgres, oldSqlite, oldWorkspace } from '../../fixtures/old-database.ts';
import { givenAccount, planInput } from './store-contract.ts';

const LINKS = 3000;

/**
 * A workspace's links written before 021 (title `Article n`, tags `t{n % 100}`); its id. The links
 * go in by SQL in 020's columns: the store of today writes columns later migrations add.
 */
async function seedBefore021(old: Pick<OldDatabase, 'run'>, workspaceId: number): Promise<number> {
  const rows = Array.from({ length: LINKS }, (_, n) => [
    `code${n}`,
    `https://example.com/articles/${n}`,
    `Article ${n}`,
  ]);
  rows.push(['tagged', 'https://example.com/tagged', '']);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    await old.run(
      `INSERT INTO links (code, workspace_id, long_url, normalized_url, url_hash, title, created_at, domain_id)
       VALUES ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, 0)').join(', ')}`,
      ...chunk.flatMap(([code, url, title], j) => [
        code as string,
        workspaceId,
        url as string,
        url as string,
        createHash('sha256')
          .update(url as string)
          .digest('hex'),
        title as string,
        1_700_000_000_000 + i + j,
      ]),
    );
  }
  await old.run(
    "INSERT INTO link_tags (link_id, tag) SELECT id, 'summer-sale' FROM links WHERE code = 'tagged'",
  );
  return workspaceId;
}

const codes = async (store: Store, workspaceId: number, text: string) =>
  (await store.listLinks(workspaceId, { limit: 20, find: { text } })).links.map((link) => link.code);

/** The statement and its plan for a text of the search box. */
async function planOf(old: OldDatabase, workspaceId: number, text: string, index: TextIndex) {
  const query: LinkQuery = { limit: 50, find: { text }, state: { is: 'listed', now: 0 } };
  const sql = linkListing(workspaceId, query, () => '?', index);
  const explain = old.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN';
  const rows = await old.run(`${explain} ${sql.select}`, ...sql.selectParams);
  return rows.map((row) => String(row.detail ?? row['QUERY PLAN'])).join('\n');
}

async function migrated(old: OldDatabase, check: (store: Store, workspaceId: number) => Promise<void>) {
  const store = old.open();
  try {
    const workspaceId = await seedBefore021(old, await oldWorkspace(old));
    await store.migrate();
    await check(store, workspaceId);
  } finally {
    await store.close();
    await old.remove();
  }
}

describe('migration 021 on SQLite', () => {
  it('finds the links made before it, from the trigram table', async () => {
    await migrated(await oldSqlite('021', '020-link-search'), async (store, workspaceId) => {
      assert.deepEqual(await codes(store, workspaceId, 'ARTICLE 1234'), ['code1234']);
      assert.deepEqual(await codes(store, workspaceId, 'mer-sa'), ['tagged'], 'a tag');
      assert.deepEqual(await codes(store, workspaceId, 'CODE2999'), ['code2999'], 'a code prefix');
      // More matches than TEXT_FEW: read along the order, the same links.
      const newest = Array.from({ length: 20 }, (_, i) => `code${LINKS - 1 - i}`);
      assert.deepEqual(await codes(store, workspaceId, 'example.com/articles/'), newest);
    });
  });

  it('starts from the matches and the code range, never from every link', async () => {
    const old = await oldSqlite('021', '020-link-search');
    await migrated(old, async (_store, workspaceId) => {
      for (const text of ['rticle 12', 'code12', 'summer']) {
        const plan = await planOf(old, workspaceId, text, 'fts5');
        assert.match(plan, /SCAN link_search VIRTUAL TABLE/, text);
        assert.doesNotMatch(plan, /SCAN links\b|links_account/, text);
      }
      assert.match(
        await planOf(old, workspaceId, 'ar', 'fts5'),
        /links_account/,
        'two characters: as before',
      );
    });
  });
});

const databaseUrl = process.env.TEST_DATABASE_URL;

describe('migration 021 on PostgreSQL', {
  skip: databaseUrl ? false : 'TEST_DATABASE_URL is not set',
}, () => {
  const admin = postgres(databaseUrl as string, { max: 1, onnotice: () => {} });
  const cleanups: Array<() => Promise<unknown>> = [];
  after(async () => {
    // In order: a role is dropped after the database holding its objects.
    for (const cleanup of cleanups) await cleanup();
    await admin.end({ timeout: 5 });
  });
  /** A database of its own, dropped after the file; its URL. */
  async function database(): Promise<URL> {
    const name = `snip_test_${randomBytes(5).toString('hex')}`;
    await admin.unsafe(`CREATE DATABASE ${name}`);
    cleanups.push(() => admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const url = new URL(databaseUrl as string);
    url.pathname = `/${name}`;
    return url;
  }

  it('builds the trigram indexes, and a title, a tag and a code prefix read them', async () => {
    const old = await oldPostgres((await database()).href, '021', '020-link-search');
    await migrated(old, async (store, workspaceId) => {
      assert.deepEqual(await codes(store, workspaceId, 'ARTICLE 1234'), ['code1234']);
      assert.deepEqual(await codes(store, workspaceId, 'mer-sa'), ['tagged']);
      // At 3,000 links a sequential scan is the cheaper plan; at 100,000 the planner picks the
      // indexes itself (bench/list-query.ts). Here: that each term can be read from one.
      await old.run('ANALYZE links');
      await old.run('ANALYZE link_tags');
      await old.run('SET enable_seqscan = off');
      const plans = {
        title: await planOf(old, workspaceId, 'rticle 1234', 'pg_trgm'),
        tag: await planOf(old, workspaceId, 'mer-sa', 'pg_trgm'),
        code: await planOf(old, workspaceId, 'code12', 'pg_trgm'),
      };
      for (const [kind, plan] of Object.entries(plans)) {
        assert.doesNotMatch(plan, /Seq Scan on links\b|links_account/, kind);
        assert.match(plan, /links_title_trgm/, kind);
      }
      const trgm = await old.run("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%trgm' ORDER BY 1");
      assert.deepEqual(
        trgm.map((row) => row.indexname),
        ['link_tags_tag_trgm', 'links_long_url_trgm', 'links_title_trgm'],
      );
      assert.match(plans.code, /links_workspace_code/);
    });
  });

  it('migrates for a user who may not create the extension, and finds text without its indexes', async () => {
    const url = await database();
    const role = `snip_test_${randomBytes(5).toString('hex')}`;
    await admin.unsafe(`CREATE ROLE ${role} LOGIN`);
    cleanups.push(() => admin.unsafe(`DROP ROLE IF EXISTS ${role}`));
    const owner = postgres(url.href, { max: 1, onnotice: () => {} });
    await owner.unsafe(`CREATE SCHEMA snip AUTHORIZATION ${role}`);
    await owner.end({ timeout: 5 });
    url.username = role;
    url.searchParams.set('search_path', 'snip');
    const store = openPostgresStore(url.href);
    const db = postgres(url.href, { max: 1, onnotice: () => {} });
    // `?` placeholders numbered as PostgreSQL takes them.
    const run = async (sql: string, ...params: Array<string | number>) => {
      let n = 0;
      return [
        ...(await db.unsafe(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        )),
      ];
    };
    try {
      await store.migrate();
      const plan = await store.upsertPlan(planInput({ urlQuota: LINKS * 2 }));
      const workspaceId = await seedBefore021(
        { run },
        (await givenAccount(store, 'ada@example.com', plan)).id,
      );
      assert.deepEqual(await codes(store, workspaceId, 'ARTICLE 1234'), ['code1234']);
      assert.deepEqual(await codes(store, workspaceId, 'mer-sa'), ['tagged']);
      assert.deepEqual(await codes(store, workspaceId, 'CODE2999'), ['code2999']);
    } finally {
      await db.end({ timeout: 5 });
      await store.close();
    }
    const check = postgres(url.href, { max: 1, onnotice: () => {} });
    try {
      const trgm = await check`SELECT indexname FROM pg_indexes WHERE indexname LIKE '%trgm'`;
      assert.equal(trgm.length, 0);
      const [applied] = await check`SELECT 1 FROM schema_migrations WHERE name = '021-link-text-search'`;
      assert.ok(applied);
    } finally {
      await check.end({ timeout: 5 });
    }
  });
});
