import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { DAYS_OF_ACCOUNT, DAYS_OF_LINK } from '../../../src/adapters/sql/click-scripts.ts';
import { FIND_REDIRECT_LINK } from '../../../src/adapters/sql/link-scripts.ts';
import { loadMigrations, SCHEMA_MIGRATIONS_DDL } from '../../../src/adapters/sql/migrations.ts';
import { STATS_SQL } from '../../../src/adapters/sql/stats-queries.ts';
import { openSqliteStore } from '../../../src/adapters/sqlite/store.ts';
import { NEXT_EVENT_ACCOUNT, PURGE_EVENTS } from '../../../src/adapters/sqlite/write-clicks.ts';
import type { NewLink } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { runAliasContract } from './alias-contract.ts';
import { runArchiveContract } from './archive-contract.ts';
import { runDomainContract } from './domain-contract.ts';
import { givenAccount, newLink, planInput, runStoreContract } from './store-contract.ts';
import { runWorkspaceContract } from './workspace-contract.ts';

let dir: string;
let fileCounter = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'snip-store-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

function freshPath(): string {
  fileCounter += 1;
  return join(dir, `store-${fileCounter}`, 'snip.db');
}

async function openMigrated(path: string = freshPath()): Promise<Store> {
  const store = openSqliteStore(path);
  await store.migrate();
  return store;
}

runStoreContract('SQLite', () => openMigrated());
runDomainContract('SQLite', () => openMigrated());
runAliasContract('SQLite', () => openMigrated());
runArchiveContract('SQLite', () => openMigrated());
runWorkspaceContract('SQLite', () => openMigrated(), {
  openPair: async () => {
    const path = freshPath();
    return [await openMigrated(path), await openMigrated(path)];
  },
});

describe('SQLite store', () => {
  it('applies every migration on a new file, then nothing on the next run', async () => {
    const path = freshPath();
    const names = (await loadMigrations('sqlite')).map((migration) => migration.name);
    const store = openSqliteStore(path);
    try {
      assert.deepEqual(await store.migrate(), names);
      assert.ok(names.includes('001-initial'));
      assert.deepEqual(await store.migrate(), []);
    } finally {
      await store.close();
    }
    const reopened = openSqliteStore(path);
    try {
      assert.deepEqual(await reopened.migrate(), []);
    } finally {
      await reopened.close();
    }
  });

  it('records each applied migration in schema_migrations', async () => {
    const path = freshPath();
    const store = await openMigrated(path);
    await store.close();
    const db = new DatabaseSync(path);
    try {
      const rows = db.prepare('SELECT name FROM schema_migrations ORDER BY name').all();
      assert.deepEqual(
        rows.map((row) => row.name),
        (await loadMigrations('sqlite')).map((migration) => migration.name),
      );
    } finally {
      db.close();
    }
  });

  it('creates the missing parent directory and puts the file in WAL mode', async () => {
    const path = join(dir, 'deep', 'er', 'snip.db');
    const store = await openMigrated(path);
    await store.close();
    const db = new DatabaseSync(path);
    try {
      assert.equal(db.prepare('PRAGMA journal_mode').get()?.journal_mode, 'wal');
    } finally {
      db.close();
    }
  });

  it('keeps its data when the file is opened again', async () => {
    const path = freshPath();
    const first = await openMigrated(path);
    const plan = await first.upsertPlan(planInput());
    const account = await givenAccount(first, 'ada@example.com', plan);
    const link = newLink(account.id, 'https://example.com/a');
    await first.insertLinkWithinQuota(link);
    await first.close();

    const second = await openMigrated(path);
    try {
      assert.deepEqual((await second.findAccountByEmail('ada@example.com'))?.workspace, account);
      assert.equal((await second.findLinkByCode(0, link.code))?.longUrl, 'https://example.com/a');
    } finally {
      await second.close();
    }
  });

  it('brings a database made by 001 up to date, keeping its rows', async () => {
    const path = freshPath();
    const initial = (await loadMigrations('sqlite')).find((migration) => migration.name === '001-initial');
    assert.ok(initial);
    mkdirSync(dirname(path), { recursive: true });
    const old = new DatabaseSync(path);
    try {
      old.exec(SCHEMA_MIGRATIONS_DDL);
      old.exec(initial.sql);
      old.exec(`INSERT INTO schema_migrations (name, applied_at) VALUES ('001-initial', 0);
        INSERT INTO plans (id, name, api_access, url_quota, rate_limit_per_hour) VALUES (1, 'pro', 1, 10, 100);
        INSERT INTO accounts (id, email, plan_id, link_count, created_at) VALUES (1, 'ada@example.com', 1, 1, 0);
        INSERT INTO links (id, code, account_id, long_url, normalized_url, url_hash, clicks, created_at)
          VALUES (7, 'old0001', 1, 'https://example.com/', 'https://example.com/', 'h', 41, 0);`);
    } finally {
      old.close();
    }

    const store = openSqliteStore(path);
    try {
      const applied = await store.migrate();
      assert.ok(applied.includes('002-click-history'), `applied: ${applied.join(', ')}`);
      assert.ok(!applied.includes('001-initial'));
      await store.addClicks([{ linkId: 7, day: '2024-03-01', clicks: 1, botHits: 0 }]);
    } finally {
      await store.close();
    }

    const reopened = await openMigrated(path);
    try {
      const link = await reopened.findLinkByCode(0, 'old0001');
      assert.equal(link?.id, 7);
      assert.equal(link?.clicks, 42);
      assert.deepEqual(await reopened.dailyClicksOfWorkspace(1, '2024-03-01', '2024-03-01'), [
        { day: '2024-03-01', clicks: 1 },
      ]);
    } finally {
      await reopened.close();
    }
  });

  it('answers the redirect look-up and the daily ranges from an index, never a scan', async () => {
    const path = freshPath();
    const store = await openMigrated(path);
    await store.close();
    const db = new DatabaseSync(path);
    try {
      const plans = [FIND_REDIRECT_LINK, DAYS_OF_LINK, DAYS_OF_ACCOUNT].map((sql) =>
        db
          .prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .all()
          .map((row) => String(row.detail))
          .join(' | '),
      );
      const [byCode, linkDays, workspaceDays] = plans;
      // The workspace's default for conversion tracking (§20) is read by its primary key beside.
      assert.match(
        byCode ?? '',
        /^SEARCH links USING INDEX \S+ \(domain_id=\? AND code=\?\) \| CORRELATED SCALAR SUBQUERY \d+ \| SEARCH w USING INTEGER PRIMARY KEY \(rowid=\?\)$/,
      );
      assert.match(
        linkDays ?? '',
        /^SEARCH link_daily_clicks USING PRIMARY KEY \(link_id=\? AND day>\? AND day<\?\)$/,
      );
      assert.match(
        workspaceDays ?? '',
        /^SEARCH workspace_daily_clicks USING PRIMARY KEY \(workspace_id=\? AND day>\? AND day<\?\)$/,
      );
    } finally {
      db.close();
    }
  });

  it('answers stats from the per-day keys and the events from their indexes, never a scan', async () => {
    const path = freshPath();
    const store = await openMigrated(path);
    await store.close();
    const db = new DatabaseSync(path);
    const plan = (sql: string) =>
      db
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => String(row.detail));
    try {
      // The events' index on the workspace kept its name when 016 renamed the column.
      const index = { link: 'link', workspace: 'account' };
      for (const scope of ['link', 'workspace'] as const) {
        const sql = STATS_SQL[scope];
        const key = `USING PRIMARY KEY \\(${scope}_id=\\? AND day>\\? AND day<\\?\\)`;
        assert.match(plan(sql.series)[0] ?? '', new RegExp(`^SEARCH ${scope}_daily_clicks ${key}$`));
        assert.match(plan(sql.breakdowns)[0] ?? '', new RegExp(`^SEARCH ${scope}_daily_stats ${key}$`));
        const hourly = plan(sql.hourly);
        const reads = hourly.filter((step) => step.includes('click_events'));
        assert.deepEqual(reads, [
          `SEARCH click_events USING INDEX click_events_${index[scope]}_at (${scope}_id=? AND at>? AND at<?)`,
        ]);
        assert.equal(hourly.filter((step) => step === 'MATERIALIZE e').length, 1, 'the range is read once');
      }
      // The sweep reads the account index, not one on at alone (there is none to write per event).
      assert.ok(
        plan(PURGE_EVENTS).includes(
          'SEARCH click_events USING COVERING INDEX click_events_account_at (workspace_id=? AND at<?)',
        ),
        plan(PURGE_EVENTS).join('\n'),
      );
      assert.ok(
        plan(NEXT_EVENT_ACCOUNT).includes(
          'SEARCH click_events USING COVERING INDEX click_events_account_at (workspace_id>?)',
        ),
        plan(NEXT_EVENT_ACCOUNT).join('\n'),
      );
    } finally {
      db.close();
    }
  });

  it('writes the 5,000 events of a batch in the writer thread, in one piece', async () => {
    const store = await openMigrated();
    try {
      const plan = await store.upsertPlan(planInput());
      const account = await givenAccount(store, 'ada@example.com', plan);
      const created = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/'));
      assert.equal(created.kind, 'created');
      const at = Date.UTC(2024, 2, 1, 12);
      const events = Array.from({ length: 5000 }, (_, i) => ({
        linkId: created.link.id,
        workspaceId: account.id,
        at: at + i,
        referrer: 'direct',
        country: 'ZZ',
        device: 'other' as const,
        os: 'Other',
        browser: 'Other',
        language: 'unknown',
        source: 'link' as const,
        visitor: i.toString(16).padStart(16, '0'),
      }));
      await store.addClicks([{ linkId: created.link.id, day: '2024-03-01', clicks: 5000, botHits: 0 }], {
        events,
        // Their first sightings, as the collector counts them (hourly visitors: docs/adr/041).
        visitors: [
          {
            linkId: created.link.id,
            workspaceId: account.id,
            day: '2024-03-01',
            hour: 12,
            ofLink: 5000,
            ofWorkspace: 5000,
          },
        ],
        bots: [],
      });
      const answer = await store.stats(
        { linkId: created.link.id },
        { from: at, to: at + 3_600_000, interval: 'hour' },
      );
      assert.deepEqual(answer.series, [{ t: at, clicks: 5000, uniqueVisitors: 5000 }]);
      assert.deepEqual(answer.breakdowns.referrer, [{ value: 'direct', clicks: 5000 }]);
      const day = Date.UTC(2024, 2, 1);
      const daily = await store.stats(
        { linkId: created.link.id },
        { from: day, to: day + 86_400_000, interval: 'day' },
      );
      assert.deepEqual(daily.breakdowns.country, [{ value: 'ZZ', clicks: 5000 }]);
      assert.equal(await store.purgeEvents(at + 2500), 2500);
    } finally {
      await store.close();
    }
  });

  it('waits for a write lock held elsewhere without stopping the thread, then creates or takes a visit', async () => {
    const path = freshPath();
    const store = await openMigrated(path);
    const other = new DatabaseSync(path);
    try {
      const plan = await store.upsertPlan(planInput({ urlQuota: 10 }));
      const account = await givenAccount(store, 'ada@example.com', plan);
      // Another handle (as the click writer's thread would) holds the write lock.
      other.exec('BEGIN IMMEDIATE');
      let settled = false;
      const creating = store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/1'));
      void creating.finally(() => {
        settled = true;
      });
      // The thread runs timers meanwhile; SQLite's busy handler would hold it until its timeout.
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(settled, false);
      other.exec('COMMIT');
      const created = await creating;
      assert.equal(created.kind, 'created');
      assert.equal(await store.countLiveLinks(account.id), 1);
      // A visit taken on the redirect's path waits the same way.
      assert.ok(created.kind === 'created');
      await store.updateLink(account.id, 0, created.link.code, { guards: { maxClicks: 5 } });
      other.exec('BEGIN IMMEDIATE');
      let taken = false;
      const taking = store.takeVisit(created.link.id).then((result) => {
        taken = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(taken, false);
      other.exec('COMMIT');
      assert.equal(await taking, true);
    } finally {
      other.close();
      await store.close();
    }
  });

  it('keeps the quota and duplicate rules across two handles on one file', async () => {
    const path = freshPath();
    const a = await openMigrated(path);
    const b = await openMigrated(path);
    try {
      const plan = await a.upsertPlan(planInput({ urlQuota: 3 }));
      const account = await givenAccount(a, 'ada@example.com', plan);
      const first = await a.insertLinkWithinQuota(newLink(account.id, 'https://example.com/1'));
      assert.equal(first.kind, 'created');
      const dup = await b.insertLinkWithinQuota(newLink(account.id, 'https://example.com/1'));
      assert.deepEqual(dup, { kind: 'duplicate', existing: first.link });
      assert.equal(
        (await b.insertLinkWithinQuota(newLink(account.id, 'https://example.com/2'))).kind,
        'created',
      );
      assert.equal(
        (await a.insertLinkWithinQuota(newLink(account.id, 'https://example.com/3'))).kind,
        'created',
      );
      const over = await b.insertLinkWithinQuota(newLink(account.id, 'https://example.com/4'));
      assert.equal(over.kind, 'quota-exceeded');
      assert.equal(await a.deleteLink(account.id, 0, first.link.code), true);
      assert.equal(
        (await b.insertLinkWithinQuota(newLink(account.id, 'https://example.com/4'))).kind,
        'created',
      );
      assert.equal(await a.countLiveLinks(account.id), 3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('keeps the quota and duplicate rules with four threads writing at once', async () => {
    const path = freshPath();
    const store = await openMigrated(path);
    const plan = await store.upsertPlan(planInput({ urlQuota: 25 }));
    const account = await givenAccount(store, 'ada@example.com', plan);
    await store.close();

    // Every thread tries the same 40 URLs (fresh codes each), so each URL races four ways.
    const threads = 4;
    const jobs = Array.from({ length: threads }, () =>
      Array.from({ length: 40 }, (_, i) => newLink(account.id, `https://example.com/${i}`)),
    );
    const kinds = await runWorkers(path, jobs);
    const created = kinds.filter((kind) => kind === 'created').length;
    assert.equal(created, 25);
    assert.ok(
      kinds.every((kind) => kind === 'created' || kind === 'duplicate' || kind === 'quota-exceeded'),
      `unexpected results: ${[...new Set(kinds)].join(', ')}`,
    );

    const check = await openMigrated(path);
    try {
      assert.equal(await check.countLiveLinks(account.id), 25);
    } finally {
      await check.close();
    }
  });
});

async function runWorkers(path: string, jobs: NewLink[][]): Promise<string[]> {
  const start = new SharedArrayBuffer(8);
  const signal = new Int32Array(start);
  const workers = jobs.map(
    (links) =>
      new Worker(new URL('./sqlite-insert-worker.ts', import.meta.url), {
        workerData: { path, links, start },
        execArgv: ['--disable-warning=ExperimentalWarning'],
      }),
  );
  const results = workers.map(
    (worker) =>
      new Promise<string[]>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  // Release every thread together once all have opened their handle.
  while (Atomics.load(signal, 1) < workers.length) await new Promise((resolve) => setTimeout(resolve, 5));
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
  return (await Promise.all(results)).flat();
}
