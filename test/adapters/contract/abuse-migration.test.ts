/**
 * The abuse migration (012) without loss (SPEC §13): a store made by the migrations up to 011 and
 * holding users, a team workspace, keys, links — one deleted, one on an added domain, one with
 * rules — and clicks is migrated, then read back: every link row as it was and none disabled,
 * every key resolving as before and none suspended, the workspace and users not suspended, the
 * versions at zero and the new tables empty and usable. On SQLite always, on PostgreSQL when
 * TEST_DATABASE_URL is set (a schema of its own, dropped afterwards).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadMigrations } from '../../../src/adapters/sql/migrations.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { SCOPES } from '../../../src/core/scopes.ts';
import {
  linkRows,
  type OldDatabase,
  oldClicks,
  oldPlan,
  oldPostgres,
  oldSqlite,
  type Row,
} from '../../fixtures/old-database.ts';

const AT = Date.UTC(2024, 0, 15);
/** Every column links had in 011 but its workspace's, which linkRows reads as `owner`. */
const LINK_COLUMNS =
  'id, code, domain_id, group_id, long_url, normalized_url, url_hash, title, clicks, bot_hits, ' +
  'created_at, deleted_at, updated_at, expires_at, max_clicks, limit_used, password_hash, rules, unique_visitors';

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

interface OldLink {
  id: number;
  code: string;
  domainId: number;
  deleted: boolean;
}

interface Seed {
  adaId: number;
  bobId: number;
  workspaceId: number;
  domainId: number;
  links: OldLink[];
}

/**
 * The users, workspace, memberships, keys, domain, links and clicks by SQL: the store now reads
 * columns 011 lacks and writes columns 016 renamed.
 */
async function seedOldRows(old: OldDatabase): Promise<Seed> {
  const plan = await oldPlan(old);
  const user = async (email: string) =>
    Number(
      (
        await old.run(
          'INSERT INTO users (email, email_verified, operator, created_at) VALUES (?, true, false, ?) RETURNING id',
          email,
          AT,
        )
      )[0]?.id,
    );
  const adaId = await user('ada@example.com');
  const bobId = await user('bob@example.com');
  const [workspace] = await old.run(
    `INSERT INTO workspaces (slug, name, plan_id, personal_of, link_count, key_count, created_at)
     VALUES ('acme', 'Acme Inc', ?, NULL, 3, 2, ?) RETURNING id`,
    plan.id,
    AT,
  );
  const workspaceId = Number(workspace?.id);
  for (const [userId, role] of [
    [adaId, 'owner'],
    [bobId, 'member'],
  ] as const) {
    await old.run(
      'INSERT INTO memberships (workspace_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)',
      workspaceId,
      userId,
      role,
      AT,
    );
  }
  const key = (text: string, main: number, createdBy: number, scopes: string) =>
    old.run(
      `INSERT INTO api_keys (account_id, prefix, hash, created_at, name, scopes, main, created_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      workspaceId,
      `snip_${text}`.slice(0, 11),
      sha256(text),
      AT,
      text,
      scopes,
      main,
      createdBy,
    );
  await key('ada-main', 1, adaId, SCOPES.join(' '));
  await key('bob-key', 0, bobId, 'links:read');
  const [domain] = await old.run(
    `INSERT INTO domains (host, workspace_id, shared, verification_token, verified_at, https, created_at)
     VALUES ('go.acme.example', ?, false, 'token', ?, true, ?) RETURNING id`,
    workspaceId,
    AT,
    AT,
  );
  const domainId = Number(domain?.id);
  const link = async (
    code: string,
    domain: number,
    url: string,
    extra: { deleted?: boolean; guarded?: boolean },
  ) => {
    const [row] = await old.run(
      `INSERT INTO links (code, domain_id, account_id, long_url, normalized_url, url_hash, title, clicks, bot_hits,
         created_at, deleted_at, updated_at, expires_at, max_clicks, limit_used, password_hash)
       VALUES (?, ?, ?, ?, ?, ?, 'A title', 41, 3, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      code,
      domain,
      workspaceId,
      url,
      url,
      sha256(url).toString('hex'),
      AT,
      extra.deleted ? AT + 1 : null,
      AT,
      extra.guarded ? AT + 86_400_000 * 365 * 10 : null,
      extra.guarded ? 100 : null,
      extra.guarded ? 5 : 0,
      extra.guarded ? 'scrypt$not-a-real-hash' : null,
    );
    return { id: Number(row?.id), code, domainId: domain, deleted: extra.deleted === true };
  };
  const links = [
    await link('old0001', 0, 'https://example.com/one', {}),
    await link('old0002', 0, 'https://example.com/two', { guarded: true }),
    await link('old0003', 0, 'https://example.com/three', { deleted: true }),
    await link('old0001', domainId, 'https://example.com/one', {}),
  ];
  const [first, , , onDomain] = links;
  await oldClicks(old, [
    { linkId: first?.id ?? 0, day: '2024-03-01', clicks: 2, botHits: 1 },
    { linkId: onDomain?.id ?? 0, day: '2024-03-02', clicks: 1, botHits: 0 },
  ]);
  return { adaId, bobId, workspaceId, domainId, links };
}

/** `skip`: why the suite does not run here (its database is not given), or false. */
function describeMigration(
  name: string,
  makeOld: () => Promise<OldDatabase>,
  skip: string | false = false,
): void {
  describe(`the abuse migration on ${name}, from a store of the domains release`, { skip }, () => {
    let old: OldDatabase;
    let seed: Seed;
    let linksBefore: Row[];
    let applied: string[];
    let store: Store;

    before(async () => {
      old = await makeOld();
      seed = await seedOldRows(old);
      linksBefore = await linkRows(old, LINK_COLUMNS);
      assert.equal(Number(linksBefore[0]?.clicks), 43, 'the old flush counted the clicks');
      store = old.open();
      applied = await store.migrate();
    });

    after(async () => {
      await store?.close();
      await old?.remove();
    });

    it('applies 012-abuse and what follows it, nothing before', async () => {
      const since012 = (await loadMigrations(old.dialect)).filter((migration) => migration.name >= '012');
      assert.equal(applied[0], '012-abuse');
      assert.deepEqual(
        applied,
        since012.map((migration) => migration.name),
      );
    });

    it('keeps every link row as it was, none disabled', async () => {
      assert.deepEqual(await linkRows(old, LINK_COLUMNS), linksBefore);
      const disabled = await old.run('SELECT disabled_at, disabled_reason FROM links');
      assert.equal(disabled.length, seed.links.length);
      for (const row of disabled) assert.deepEqual([row.disabled_at, row.disabled_reason], [null, null]);
      for (const link of seed.links) {
        const found = await store.findLinkByCode(link.domainId, link.code);
        const byId = await store.findLinkById(link.id);
        if (link.deleted) {
          assert.deepEqual([found, byId], [undefined, undefined], link.code);
          assert.equal(await store.isCodeIssued(link.domainId, link.code), true);
          continue;
        }
        const row = linksBefore.find((before) => Number(before.id) === link.id);
        assert.deepEqual(
          [found?.id, found?.workspaceId, found?.longUrl, found?.clicks, found?.botHits, found?.disabled],
          [link.id, seed.workspaceId, row?.long_url, Number(row?.clicks), Number(row?.bot_hits), null],
          link.code,
        );
        assert.deepEqual(byId, found);
      }
      const guarded = await store.findLinkById(seed.links[1]?.id ?? 0);
      assert.deepEqual([guarded?.maxClicks, guarded?.limitUsed], [100, 5]);
      assert.equal(guarded?.passwordHash, 'scrypt$not-a-real-hash');
      assert.deepEqual(await store.dailyClicksOfLink(seed.links[3]?.id ?? 0, '2024-03-01', '2024-03-31'), [
        { day: '2024-03-02', clicks: 1 },
      ]);
    });

    it('resolves every key as before, none suspended', async () => {
      const main = await store.findKeyByHash(sha256('ada-main'));
      assert.deepEqual(
        [main?.workspaceId, main?.userId, main?.role, main?.revoked, main?.suspended],
        [seed.workspaceId, seed.adaId, 'owner', false, false],
      );
      assert.deepEqual(main?.scopes, SCOPES);
      const bobs = await store.findKeyByHash(sha256('bob-key'));
      assert.deepEqual(
        [bobs?.workspaceId, bobs?.userId, bobs?.role, bobs?.revoked, bobs?.suspended, bobs?.scopes],
        [seed.workspaceId, seed.bobId, 'member', false, false, ['links:read']],
      );
      assert.equal((await store.listLiveKeys(seed.workspaceId)).length, 2);
    });

    it('reads the workspace and the users back, none suspended', async () => {
      const workspace = await store.findWorkspaceById(seed.workspaceId);
      assert.deepEqual(
        [workspace?.slug, workspace?.name, workspace?.personalOf, workspace?.suspended],
        ['acme', 'Acme Inc', null, null],
      );
      assert.deepEqual(await store.findWorkspaceBySlug('acme'), workspace);
      for (const [id, email] of [
        [seed.adaId, 'ada@example.com'],
        [seed.bobId, 'bob@example.com'],
      ] as const) {
        const user = await store.findUserByEmail(email);
        assert.deepEqual([user?.id, user?.suspendedAt, user?.operator], [id, null, false]);
      }
      assert.deepEqual(await store.suspendedWorkspaceIds(), []);
      assert.equal(await store.countLiveLinks(seed.workspaceId), 3);
    });

    it('starts the versions at zero and the new tables empty', async () => {
      assert.deepEqual(await store.abuseVersions(), { rules: 0, takedowns: 0 });
      assert.deepEqual(await store.listBlocklists(), []);
      assert.deepEqual(await store.blockRulesAfter(0, 10), []);
      assert.deepEqual(await store.listReports({ open: false, limit: 10 }), []);
      assert.equal(await store.countOpenReports(), 0);
      assert.deepEqual(await store.listAudit({ limit: 10 }), []);
    });

    it('takes down, blocks, reports and audits on the migrated rows', async () => {
      const [first, , , onDomain] = seed.links;
      assert.ok(first && onDomain);
      assert.equal((await store.setLinkDisabled(first.id, 'phishing'))?.disabled?.reason, 'phishing');
      assert.equal((await store.findLinkByCode(onDomain.domainId, onDomain.code))?.disabled, null);
      assert.deepEqual(
        (await store.searchLinks({ code: 'old0001' }, 10)).map((link) => link.id),
        [onDomain.id, first.id],
      );
      assert.equal(await store.addBlockRule('manual', { host: 'evil.example', subdomains: true }), true);
      assert.deepEqual(await store.listsWithHost('evil.example'), ['manual']);
      const report = await store.addReport({
        url: 'https://snip.example/old0002',
        linkId: seed.links[1]?.id ?? 0,
        reason: 'spam',
        comment: '',
        email: null,
      });
      assert.deepEqual(await store.findReport(report.id), report);
      await store.addAudit({
        actorId: seed.adaId,
        actor: 'ada@example.com',
        workspaceId: seed.workspaceId,
        action: 'link.disable',
        target: 'old0001',
        after: { reason: 'phishing' },
      });
      assert.deepEqual(
        (await store.listAudit({ workspaceId: seed.workspaceId, limit: 10 })).map((entry) => entry.after),
        [{ reason: 'phishing' }],
      );
      await store.setWorkspaceSuspended(seed.workspaceId, 'abuse');
      assert.equal((await store.findKeyByHash(sha256('bob-key')))?.suspended, true);
      const versions = await store.abuseVersions();
      assert.ok(versions.rules > 0 && versions.takedowns > 0);
    });
  });
}

describeMigration('SQLite', () => oldSqlite('012', '011-domains'));

const databaseUrl = process.env.TEST_DATABASE_URL;
describeMigration(
  'PostgreSQL',
  () => oldPostgres(databaseUrl as string, '012', '011-domains'),
  databaseUrl ? false : 'TEST_DATABASE_URL is not set',
);
