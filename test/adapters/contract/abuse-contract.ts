/**
 * The abuse part of the store contract (SPEC §13): takedowns of links, workspaces and users, the
 * operator's search across every workspace, blocklists, reports, the audit log and deletions.
 * Written against the ports only (and plain SQL where a case needs a state no port makes), so the
 * same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated, empty store.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { HostRule } from '../../../src/core/blocklist-format.ts';
import type { Account, Link, NewLink, Plan, Workspace } from '../../../src/core/entities.ts';
import type { NewReport } from '../../../src/core/moderation.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT } from '../../../src/core/scopes.ts';
import type { Param, Row } from '../../fixtures/old-database.ts';
import { newLink, planInput } from './store-contract.ts';

const DAY = 86_400_000;

/** A migrated, empty store, with plain SQL on its database for states no port makes. */
export interface AbuseHarness {
  store: Store;
  /** One statement with `?` placeholders; int8 values come back as numbers. */
  sql(text: string, ...params: Param[]): Promise<Row[]>;
  close(): Promise<void>;
}

interface Context {
  store: Store;
  sql: AbuseHarness['sql'];
  plan: Plan;
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();
/** Lets the clock move on, so a time written twice would differ. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function givenUser(ctx: Context, email: string): Promise<Account> {
  const result = await ctx.store.createAccount(email, ctx.plan.id, null);
  assert.equal(result.kind, 'created', email);
  if (result.kind !== 'created') throw new Error(`no account for ${email}`);
  return result.account;
}

async function givenTeam(ctx: Context, slug: string, name: string, ownerId: number): Promise<Workspace> {
  const result = await ctx.store.createWorkspace(slug, name, ctx.plan.id, ownerId);
  assert.equal(result.kind, 'created', slug);
  if (result.kind !== 'created') throw new Error(`no workspace ${slug}`);
  return result.workspace;
}

async function givenLink(
  ctx: Context,
  workspaceId: number,
  url: string,
  overrides: Partial<NewLink> = {},
): Promise<Link> {
  const result = await ctx.store.insertLinkWithinQuota(newLink(workspaceId, url, overrides));
  assert.equal(result.kind, 'created', url);
  if (result.kind !== 'created') throw new Error(`no link to ${url}`);
  return result.link;
}

/** A further key of the workspace made by `maker` (null: the operator), known by the hash of `text`. */
async function givenKey(ctx: Context, workspaceId: number, maker: number | null, text: string) {
  const result = await ctx.store.addKey(workspaceId, {
    createdBy: maker,
    name: text,
    scopes: ['links:read'],
    prefix: `snip_${text}`.slice(0, 11),
    hash: sha256(text),
  });
  assert.equal(result.kind, 'created', text);
}

async function givenDomain(ctx: Context, host: string, workspaceId: number | null): Promise<number> {
  const result = await ctx.store.addDomain({
    host,
    workspaceId,
    shared: workspaceId === null,
    verificationToken: `token-${host}`,
    verified: true,
  });
  assert.equal(result.kind, 'added', host);
  return result.kind === 'added' ? result.domain.id : -1;
}

async function givenSession(ctx: Context, userId: number, text: string): Promise<Buffer> {
  const idHash = sha256(`session-${text}`);
  await ctx.store.createSession(idHash, {
    userId,
    csrfToken: text,
    expiresAt: new Date(Date.now() + DAY),
  });
  return idHash;
}

const sessionOf = (ctx: Context, idHash: Buffer) => ctx.store.findSession(idHash, new Date());
const keySuspended = async (ctx: Context, text: string) =>
  (await ctx.store.findKeyByHash(sha256(text)))?.suspended;

export function runAbuseContract(name: string, open: () => Promise<AbuseHarness>): void {
  describe(`${name} abuse contract`, () => {
    const ctx = {} as Context;
    let harness: AbuseHarness;
    beforeEach(async () => {
      harness = await open();
      ctx.store = harness.store;
      ctx.sql = harness.sql;
      ctx.plan = await harness.store.upsertPlan(planInput({ urlQuota: 1000 }));
    });
    afterEach(async () => {
      await harness.close();
    });

    takedownCases(ctx);
    searchCases(ctx);
    blocklistCases(ctx);
    staleGenerationCases(ctx);
    reportCases(ctx);
    auditCases(ctx);
    deletionCases(ctx);
  });
}

function takedownCases(ctx: Context): void {
  describe('takedowns', () => {
    it('disables a live link once: a second disable keeps the first reason and time; enabling clears it', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const link = await givenLink(ctx, ada.workspace.id, 'https://example.com/a');
      assert.equal(link.disabled, null);
      const first = await ctx.store.setLinkDisabled(link.id, 'phishing');
      assert.equal(first?.id, link.id);
      assert.equal(first?.disabled?.reason, 'phishing');
      assert.ok(first?.disabled?.at instanceof Date);
      await tick();
      const again = await ctx.store.setLinkDisabled(link.id, 'spam');
      assert.deepEqual(again?.disabled, first.disabled);
      assert.deepEqual((await ctx.store.findLinkById(link.id))?.disabled, first.disabled);
      assert.deepEqual((await ctx.store.findLinkByCode(0, link.code))?.disabled, first.disabled);
      const enabled = await ctx.store.setLinkDisabled(link.id, null);
      assert.deepEqual(enabled, link, 'enabled, the link is as it was');
      assert.equal((await ctx.store.findLinkByCode(0, link.code))?.disabled, null);
      assert.equal((await ctx.store.setLinkDisabled(link.id, 'spam'))?.disabled?.reason, 'spam');
    });

    it('finds no deleted link and no unknown id to disable or enable', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const link = await givenLink(ctx, ada.workspace.id, 'https://example.com/a');
      assert.equal(await ctx.store.deleteLink(ada.workspace.id, 0, link.code), true);
      assert.equal(await ctx.store.findLinkById(link.id), undefined);
      assert.equal(await ctx.store.setLinkDisabled(link.id, 'phishing'), undefined);
      assert.equal(await ctx.store.setLinkDisabled(link.id, null), undefined);
      assert.equal(await ctx.store.setLinkDisabled(link.id + 1000, 'phishing'), undefined);
    });

    it('suspends a workspace once, lists it among the suspended, and resumes it', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      assert.equal(team.suspended, null);
      assert.deepEqual(await ctx.store.suspendedWorkspaceIds(), []);
      const first = await ctx.store.setWorkspaceSuspended(team.id, 'abuse');
      assert.equal(first?.suspended?.reason, 'abuse');
      assert.ok(first?.suspended?.at instanceof Date);
      await tick();
      const again = await ctx.store.setWorkspaceSuspended(team.id, 'other');
      assert.deepEqual(again?.suspended, first.suspended);
      assert.deepEqual((await ctx.store.findWorkspaceById(team.id))?.suspended, first.suspended);
      assert.deepEqual(await ctx.store.suspendedWorkspaceIds(), [team.id]);
      assert.equal((await ctx.store.findWorkspaceById(ada.workspace.id))?.suspended, null);
      const resumed = await ctx.store.setWorkspaceSuspended(team.id, null);
      assert.deepEqual(resumed, team);
      assert.deepEqual(await ctx.store.suspendedWorkspaceIds(), []);
    });

    it('suspends a user once, ending their sessions only, and resumes them', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const adaSessions = [
        await givenSession(ctx, ada.user.id, 'a1'),
        await givenSession(ctx, ada.user.id, 'a2'),
      ];
      const bobSession = await givenSession(ctx, bob.user.id, 'b1');
      const first = await ctx.store.setUserSuspended(ada.user.id, true);
      assert.ok(first?.suspendedAt instanceof Date);
      for (const idHash of adaSessions) assert.equal(await sessionOf(ctx, idHash), undefined);
      assert.equal((await sessionOf(ctx, bobSession))?.userId, bob.user.id);
      await tick();
      const again = await ctx.store.setUserSuspended(ada.user.id, true);
      assert.deepEqual(again?.suspendedAt, first.suspendedAt);
      assert.deepEqual((await ctx.store.findUserById(ada.user.id))?.suspendedAt, first.suspendedAt);
      assert.equal((await ctx.store.findUserById(bob.user.id))?.suspendedAt, null);
      const resumed = await ctx.store.setUserSuspended(ada.user.id, false);
      assert.deepEqual(resumed, ada.user);
    });

    it('grants and revokes the operator flag', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      assert.equal(ada.user.operator, false);
      assert.equal((await ctx.store.setUserOperator(ada.user.id, true))?.operator, true);
      assert.equal((await ctx.store.findUserById(ada.user.id))?.operator, true);
      assert.deepEqual(await ctx.store.setUserOperator(ada.user.id, false), ada.user);
    });

    it('answers undefined for a workspace or user that does not exist', async () => {
      assert.equal(await ctx.store.setWorkspaceSuspended(424242, 'abuse'), undefined);
      assert.equal(await ctx.store.setUserSuspended(424242, true), undefined);
      assert.equal(await ctx.store.setUserOperator(424242, true), undefined);
      assert.deepEqual(await ctx.store.suspendedWorkspaceIds(), []);
    });

    it('raises the takedowns version on every takedown, the rules version on none', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const link = await givenLink(ctx, ada.workspace.id, 'https://example.com/a');
      assert.deepEqual(await ctx.store.abuseVersions(), { rules: 0, takedowns: 0 });
      const steps: Array<() => Promise<unknown>> = [
        () => ctx.store.setLinkDisabled(link.id, 'phishing'),
        () => ctx.store.setLinkDisabled(link.id, 'phishing'),
        () => ctx.store.setLinkDisabled(link.id, null),
        () => ctx.store.setWorkspaceSuspended(ada.workspace.id, 'abuse'),
        () => ctx.store.setWorkspaceSuspended(ada.workspace.id, null),
        () => ctx.store.setUserSuspended(ada.user.id, true),
        () => ctx.store.setUserSuspended(ada.user.id, false),
      ];
      let last = 0;
      for (const [index, step] of steps.entries()) {
        await step();
        const versions = await ctx.store.abuseVersions();
        assert.ok(versions.takedowns > last, `step ${index} raised it`);
        assert.equal(versions.rules, 0);
        last = versions.takedowns;
      }
    });

    it('marks a key suspended while its workspace or its maker is suspended', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      assert.equal(await ctx.store.addMember(team.id, bob.user.id, 'member'), true);
      await givenKey(ctx, team.id, bob.user.id, 'bob-team');
      await givenKey(ctx, team.id, null, 'cli-team');
      await ctx.store.replaceMainKey(ada.workspace.id, 'snip_main', sha256('ada-main'), ada.user.id);
      const states = async () =>
        Promise.all(['bob-team', 'cli-team', 'ada-main'].map((text) => keySuspended(ctx, text)));
      assert.deepEqual(await states(), [false, false, false]);
      await ctx.store.setUserSuspended(bob.user.id, true);
      assert.deepEqual(await states(), [true, false, false], 'the maker suspended');
      await ctx.store.setUserSuspended(bob.user.id, false);
      assert.deepEqual(await states(), [false, false, false]);
      await ctx.store.setWorkspaceSuspended(team.id, 'abuse');
      assert.deepEqual(await states(), [true, true, false], 'the workspace suspended');
      await ctx.store.setWorkspaceSuspended(team.id, null);
      assert.deepEqual(await states(), [false, false, false]);
      assert.equal((await ctx.store.findKeyByHash(sha256('bob-team')))?.revoked, false);
    });
  });
}

function searchCases(ctx: Context): void {
  describe('search across workspaces', () => {
    it('finds links by code on every domain, newest first, deleted ones left out', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const own = await givenDomain(ctx, 'go.ada.example', ada.workspace.id);
      const shared = await givenDomain(ctx, 'links.example', null);
      const code = 'same123';
      const gone = await givenLink(ctx, ada.workspace.id, 'https://example.com/gone', {
        code,
        domainId: own,
      });
      assert.equal(await ctx.store.deleteLink(ada.workspace.id, own, code), true);
      const onDefault = await givenLink(ctx, bob.workspace.id, 'https://example.com/b', { code });
      const onShared = await givenLink(ctx, ada.workspace.id, 'https://example.com/a', {
        code,
        domainId: shared,
      });
      await givenLink(ctx, ada.workspace.id, 'https://example.com/other');
      const ids = async (limit: number) =>
        (await ctx.store.searchLinks({ code }, limit)).map((link) => link.id);
      assert.deepEqual(await ids(10), [onShared.id, onDefault.id]);
      assert.ok(!(await ids(10)).includes(gone.id));
      assert.deepEqual(await ids(1), [onShared.id]);
      assert.deepEqual(await ctx.store.searchLinks({ code: 'none123' }, 10), []);
      const [found] = await ctx.store.searchLinks({ code }, 10);
      assert.deepEqual(found, onShared);
    });

    it('finds links to a host over http and https on any port, never a longer host, in URL order', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const urls = [
        [ada, 'https://evil.example/a/b'],
        [bob, 'https://evil.example/'],
        [ada, 'http://evil.example:8080/p'],
        [bob, 'https://evil.example:8443/'],
        [ada, 'http://evil.example/x'],
        [ada, 'https://evil.example.org/'],
        [ada, 'https://sub.evil.example/'],
        [bob, 'https://notevil.example/'],
        [bob, 'http://evil.examplex/'],
      ] as const;
      for (const [account, url] of urls) await givenLink(ctx, account.workspace.id, url);
      const deleted = await givenLink(ctx, ada.workspace.id, 'https://evil.example/deleted');
      await ctx.store.deleteLink(ada.workspace.id, 0, deleted.code);
      const host = 'evil.example';
      const urlPrefixes = ['http', 'https'].flatMap((scheme) => [
        `${scheme}://${host}/`,
        `${scheme}://${host}:`,
      ]);
      const found = async (limit: number) =>
        (await ctx.store.searchLinks({ urlPrefixes }, limit)).map((link) => link.normalizedUrl);
      const expected = [
        'http://evil.example/x',
        'http://evil.example:8080/p',
        'https://evil.example/',
        'https://evil.example/a/b',
        'https://evil.example:8443/',
      ];
      assert.deepEqual(await found(100), expected);
      assert.deepEqual(await found(2), expected.slice(0, 2));
      assert.deepEqual(await found(4), expected.slice(0, 4));
    });

    it('finds links under a URL prefix only, in URL order, at most the limit', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      for (const url of [
        'https://evil.example/b',
        'https://evil.example/',
        'https://evil.example/a/2',
        'https://evil.example/a/1',
        'https://evil.example.org/',
        'https://evil.example.org/a/1',
        'https://other.example/evil.example/a',
      ]) {
        await givenLink(ctx, ada.workspace.id, url);
      }
      const found = async (prefix: string, limit = 100) =>
        (await ctx.store.searchLinks({ urlPrefixes: [prefix] }, limit)).map((link) => link.normalizedUrl);
      assert.deepEqual(await found('https://evil.example/'), [
        'https://evil.example/',
        'https://evil.example/a/1',
        'https://evil.example/a/2',
        'https://evil.example/b',
      ]);
      assert.deepEqual(await found('https://evil.example/a/'), [
        'https://evil.example/a/1',
        'https://evil.example/a/2',
      ]);
      assert.deepEqual(await found('https://evil.example/', 2), [
        'https://evil.example/',
        'https://evil.example/a/1',
      ]);
      assert.deepEqual(await found('https://evil.example/c'), []);
      assert.deepEqual(await ctx.store.searchLinks({ urlPrefixes: [] }, 10), []);
    });

    it('finds users by a part of their email, case-insensitive, wildcards taken literally, newest first', async () => {
      const emails = [
        'ada@example.com',
        'bob_smith@example.com',
        'bobxsmith@example.com',
        'carol%1@example.com',
        'carol21@example.com',
        'back\\slash@example.com',
      ];
      const ids = new Map<string, number>();
      for (const email of emails) ids.set(email, (await givenUser(ctx, email)).user.id);
      const found = async (text: string, limit = 100) =>
        (await ctx.store.searchUsers(text, limit)).map((user) => user.email);
      assert.deepEqual(await found('ADA'), ['ada@example.com']);
      assert.deepEqual(await found('bob_'), ['bob_smith@example.com']);
      assert.deepEqual(await found('%1'), ['carol%1@example.com']);
      assert.deepEqual(await found('\\'), ['back\\slash@example.com']);
      assert.deepEqual(await found('SMITH@'), ['bobxsmith@example.com', 'bob_smith@example.com']);
      assert.deepEqual(await found(''), emails.toReversed());
      assert.deepEqual(await found('', 2), emails.toReversed().slice(0, 2));
      assert.deepEqual(await found('nobody'), []);
      const [ada] = await ctx.store.searchUsers('ada@', 10);
      assert.deepEqual(ada, await ctx.store.findUserById(ids.get('ada@example.com') ?? 0));
    });

    it('finds workspaces by a part of their slug or name, case-insensitive, wildcards taken literally', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const acme = await givenTeam(ctx, 'acme', 'Acme Inc', ada.user.id);
      const labs = await givenTeam(ctx, 'acme-labs', 'Acme_Labs 100%', ada.user.id);
      const xlabs = await givenTeam(ctx, 'acmexlabs', 'AcmeXLabs 1000', ada.user.id);
      const byName = await givenTeam(ctx, 'zeta', 'Road Runner', ada.user.id);
      const found = async (text: string, limit = 100) =>
        (await ctx.store.searchWorkspaces(text, limit)).map((workspace) => workspace.slug);
      assert.deepEqual(await found('ACME'), ['acmexlabs', 'acme-labs', 'acme']);
      assert.deepEqual(await found('acme inc'), ['acme']);
      assert.deepEqual(await found('acme_l'), ['acme-labs']);
      assert.deepEqual(await found('100%'), ['acme-labs']);
      assert.deepEqual(await found('road RUN'), ['zeta']);
      assert.deepEqual(await found('', 3), ['zeta', 'acmexlabs', 'acme-labs']);
      assert.equal((await found('')).length, 5, 'the personal workspace too');
      assert.deepEqual(await found('nothing'), []);
      const [first] = await ctx.store.searchWorkspaces('acme inc', 10);
      assert.deepEqual(first, acme);
      assert.ok(labs.id < xlabs.id && xlabs.id < byName.id);
    });
  });
}

const rule = (host: string, subdomains = false): HostRule => ({ host, subdomains });
const ruleKey = (r: HostRule) => `${r.subdomains ? '*.' : ''}${r.host}`;

async function liveRules(store: Store, pageSize = 10_000): Promise<string[]> {
  const all: string[] = [];
  let after = 0;
  for (;;) {
    const page = await store.blockRulesAfter(after, pageSize);
    if (page.length === 0) return all;
    for (const found of page) {
      assert.ok(found.id > after, 'in id order');
      after = found.id;
      all.push(ruleKey(found));
    }
  }
}

const sorted = (keys: readonly string[]) => keys.toSorted();

function blocklistCases(ctx: Context): void {
  describe('blocklists', () => {
    it('creates a list by replacing it, then replaces its rules whole', async () => {
      const made = await ctx.store.replaceBlocklist(
        'urlhaus',
        'https://lists.example/urlhaus.txt',
        [rule('a.example'), rule('b.example', true)],
        3,
      );
      assert.deepEqual(
        [made.name, made.source, made.ruleCount, made.skipped],
        ['urlhaus', 'https://lists.example/urlhaus.txt', 2, 3],
      );
      assert.deepEqual(await ctx.store.listBlocklists(), [made]);
      assert.deepEqual(sorted(await liveRules(ctx.store)), ['*.b.example', 'a.example']);
      const replaced = await ctx.store.replaceBlocklist('urlhaus', null, [rule('c.example')], 0);
      assert.deepEqual(
        [replaced.name, replaced.source, replaced.ruleCount, replaced.skipped],
        ['urlhaus', null, 1, 0],
      );
      assert.deepEqual(await ctx.store.listBlocklists(), [replaced]);
      assert.deepEqual(await liveRules(ctx.store), ['c.example'], 'the old rules are gone');
      assert.deepEqual(await ctx.store.listsWithHost('a.example'), []);
      const rows = await ctx.sql('SELECT count(*) AS n FROM blocklists');
      assert.equal(Number(rows[0]?.n), 1, 'one generation left');
    });

    it('keeps one rule per host and kind', async () => {
      const made = await ctx.store.replaceBlocklist(
        'dupes',
        null,
        [
          rule('a.example'),
          rule('a.example', true),
          rule('a.example'),
          rule('b.example'),
          rule('a.example', true),
        ],
        0,
      );
      assert.equal(made.ruleCount, 3);
      assert.deepEqual(sorted(await liveRules(ctx.store)), ['*.a.example', 'a.example', 'b.example']);
    });

    it('writes 25,001 rules in several chunks, swaps them in, and drops them all when replaced', async () => {
      const rules = Array.from({ length: 25_001 }, (_, i) => rule(`h${i}.example`, i % 2 === 0));
      const made = await ctx.store.replaceBlocklist('big', null, [...rules, ...rules.slice(0, 100)], 7);
      assert.deepEqual([made.ruleCount, made.skipped], [25_001, 7]);
      const live = await liveRules(ctx.store, 10_000);
      assert.equal(live.length, 25_001);
      assert.deepEqual(sorted(live), sorted(rules.map(ruleKey)));
      assert.deepEqual(await ctx.store.listsWithHost('h25000.example'), ['big']);
      const small = await ctx.store.replaceBlocklist('big', null, [rule('x.example'), rule('y.example')], 0);
      assert.equal(small.ruleCount, 2);
      assert.deepEqual(sorted(await liveRules(ctx.store)), ['x.example', 'y.example']);
      const [count] = await ctx.sql('SELECT count(*) AS n FROM blocklist_rules');
      assert.equal(Number(count?.n), 2, 'the old generation is deleted, not only hidden');
    });

    it('adds one rule by hand to a list it creates, false when the list holds it already', async () => {
      assert.equal(await ctx.store.addBlockRule('manual', rule('evil.example')), true);
      assert.equal(await ctx.store.addBlockRule('manual', rule('evil.example')), false);
      assert.equal(await ctx.store.addBlockRule('manual', rule('evil.example', true)), true, 'another kind');
      const [manual] = await ctx.store.listBlocklists();
      assert.deepEqual(
        [manual?.name, manual?.source, manual?.ruleCount, manual?.skipped],
        ['manual', null, 2, 0],
      );
      assert.deepEqual(sorted(await liveRules(ctx.store)), ['*.evil.example', 'evil.example']);
    });

    it('removes a host from every list, counting the rules that went', async () => {
      await ctx.store.replaceBlocklist('feed', null, [rule('evil.example', true), rule('keep.example')], 0);
      await ctx.store.addBlockRule('manual', rule('evil.example'));
      await ctx.store.addBlockRule('manual', rule('other.example'));
      assert.deepEqual(await ctx.store.listsWithHost('evil.example'), ['feed', 'manual']);
      assert.equal(await ctx.store.removeBlockRule('evil.example'), 2);
      assert.deepEqual(await ctx.store.listsWithHost('evil.example'), []);
      assert.deepEqual(sorted(await liveRules(ctx.store)), ['keep.example', 'other.example']);
      const counts = (await ctx.store.listBlocklists()).map((list) => [list.name, list.ruleCount]);
      assert.deepEqual(counts, [
        ['feed', 1],
        ['manual', 1],
      ]);
      assert.equal(await ctx.store.removeBlockRule('evil.example'), 0);
    });

    it('deletes a whole list, false when there is none of that name', async () => {
      await ctx.store.replaceBlocklist('feed', null, [rule('a.example'), rule('b.example')], 0);
      await ctx.store.addBlockRule('manual', rule('c.example'));
      assert.equal(await ctx.store.deleteBlocklist('feed'), true);
      assert.deepEqual(
        (await ctx.store.listBlocklists()).map((list) => list.name),
        ['manual'],
      );
      assert.deepEqual(await liveRules(ctx.store), ['c.example']);
      assert.equal(await ctx.store.deleteBlocklist('feed'), false);
      const [count] = await ctx.sql('SELECT count(*) AS n FROM blocklist_rules');
      assert.equal(Number(count?.n), 1);
    });

    it('pages the rules of the live lists in id order', async () => {
      await ctx.store.replaceBlocklist(
        'one',
        null,
        ['a', 'b', 'c', 'd', 'e'].map((h) => rule(`${h}.example`)),
        0,
      );
      await ctx.store.addBlockRule('manual', rule('f.example', true));
      const first = await ctx.store.blockRulesAfter(0, 4);
      assert.equal(first.length, 4);
      const rest = await ctx.store.blockRulesAfter(first.at(-1)?.id ?? 0, 4);
      assert.equal(rest.length, 2);
      const all = [...first, ...rest];
      assert.deepEqual(
        all.map((found) => found.id),
        all.map((found) => found.id).toSorted((a, b) => a - b),
      );
      assert.equal(new Set(all.map((found) => found.id)).size, 6);
      assert.deepEqual(all.at(-1), { id: all.at(-1)?.id, host: 'f.example', subdomains: true });
      assert.deepEqual(await ctx.store.blockRulesAfter(all.at(-1)?.id ?? 0, 4), []);
    });

    it('names the lists holding exactly a host, by name', async () => {
      await ctx.store.replaceBlocklist('zeta', null, [rule('evil.example', true)], 0);
      await ctx.store.replaceBlocklist('alpha', null, [rule('evil.example')], 0);
      await ctx.store.replaceBlocklist('mid', null, [rule('sub.evil.example'), rule('evil.example.org')], 0);
      assert.deepEqual(await ctx.store.listsWithHost('evil.example'), ['alpha', 'zeta']);
      assert.deepEqual(await ctx.store.listsWithHost('sub.evil.example'), ['mid']);
      assert.deepEqual(await ctx.store.listsWithHost('example'), []);
    });

    it('raises the rules version on each change of a list, the takedowns version on none', async () => {
      const steps: Array<[string, () => Promise<unknown>, boolean]> = [
        ['replace', () => ctx.store.replaceBlocklist('feed', null, [rule('a.example')], 0), true],
        ['add', () => ctx.store.addBlockRule('manual', rule('b.example')), true],
        ['add held', () => ctx.store.addBlockRule('manual', rule('b.example')), false],
        ['remove', () => ctx.store.removeBlockRule('a.example'), true],
        ['remove absent', () => ctx.store.removeBlockRule('a.example'), false],
        ['delete', () => ctx.store.deleteBlocklist('manual'), true],
      ];
      let last = (await ctx.store.abuseVersions()).rules;
      for (const [label, step, changes] of steps) {
        await step();
        const versions = await ctx.store.abuseVersions();
        if (changes) assert.ok(versions.rules > last, label);
        else assert.equal(versions.rules, last, label);
        assert.equal(versions.takedowns, 0, label);
        last = versions.rules;
      }
    });
  });
}

function staleGenerationCases(ctx: Context): void {
  describe('a replace that stopped half-way', () => {
    /** A generation an import wrote and never swapped in: a row that is not live, with rules. */
    const givenStale = async (name: string, hosts: string[]): Promise<void> => {
      const [row] = await ctx.sql(
        `INSERT INTO blocklists (name, source, rule_count, skipped, live, created_at, updated_at)
         VALUES (?, NULL, 0, 0, false, 0, 0) RETURNING id`,
        name,
      );
      const id = Number(row?.id);
      for (const host of hosts) {
        await ctx.sql(
          'INSERT INTO blocklist_rules (list_id, host, subdomains) VALUES (?, ?, false)',
          id,
          host,
        );
      }
    };
    /** What is left of it: rows that are not live, and rules of the host only it held. (SQLite may reuse its id.) */
    const leftOver = async () => [
      Number((await ctx.sql('SELECT count(*) AS n FROM blocklists WHERE NOT live'))[0]?.n),
      Number((await ctx.sql("SELECT count(*) AS n FROM blocklist_rules WHERE host = 'stale.example'"))[0]?.n),
    ];

    it('is never read, and is cleaned up by the next replace of that name', async () => {
      await ctx.store.replaceBlocklist('feed', null, [rule('old.example')], 0);
      await givenStale('feed', ['stale.example', 'old.example']);
      assert.deepEqual(await leftOver(), [1, 1]);
      assert.deepEqual(await liveRules(ctx.store), ['old.example']);
      assert.deepEqual(await ctx.store.listsWithHost('stale.example'), []);
      assert.deepEqual(
        (await ctx.store.listBlocklists()).map((list) => [list.name, list.ruleCount]),
        [['feed', 1]],
      );
      const replaced = await ctx.store.replaceBlocklist('feed', null, [rule('new.example')], 0);
      assert.deepEqual(await liveRules(ctx.store), ['new.example']);
      assert.deepEqual(await leftOver(), [0, 0]);
      const rows = await ctx.sql("SELECT id FROM blocklists WHERE name = 'feed'");
      assert.deepEqual(
        rows.map((row) => Number(row.id)),
        [replaced.id],
      );
      const [count] = await ctx.sql('SELECT count(*) AS n FROM blocklist_rules');
      assert.equal(Number(count?.n), 1);
    });

    it('is cleaned up when the list has no live generation yet', async () => {
      await givenStale('fresh', ['stale.example']);
      assert.deepEqual(await ctx.store.listBlocklists(), []);
      const made = await ctx.store.replaceBlocklist('fresh', null, [rule('new.example')], 0);
      assert.equal(made.ruleCount, 1);
      assert.deepEqual(await leftOver(), [0, 0]);
      assert.deepEqual(await liveRules(ctx.store), ['new.example']);
    });
  });
}

function reportCases(ctx: Context): void {
  describe('reports', () => {
    const report = (linkId: number, overrides: Partial<NewReport> = {}): NewReport => ({
      url: 'https://snip.example/abc1234',
      linkId,
      reason: 'phishing',
      comment: 'asks for my bank password',
      email: 'reporter@example.net',
      ...overrides,
    });
    const givenReportedLink = async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      return { ada, link: await givenLink(ctx, ada.workspace.id, 'https://example.com/a') };
    };

    it('adds a report and finds it by its id', async () => {
      const { link } = await givenReportedLink();
      const before = Date.now();
      const added = await ctx.store.addReport(report(link.id));
      assert.deepEqual(
        { ...added, id: 0, createdAt: null },
        {
          ...report(link.id),
          id: 0,
          createdAt: null,
          resolvedAt: null,
          resolution: null,
          resolvedBy: null,
        },
      );
      assert.ok(added.createdAt.getTime() >= before - 1000);
      assert.deepEqual(await ctx.store.findReport(added.id), added);
      const anonymous = await ctx.store.addReport(
        report(link.id, { email: null, reason: 'other', comment: '' }),
      );
      assert.deepEqual(await ctx.store.findReport(anonymous.id), anonymous);
      assert.equal(anonymous.email, null);
      assert.equal(await ctx.store.findReport(anonymous.id + 1000), undefined);
    });

    it('lists reports newest first, the open ones or all, at most the limit', async () => {
      const { ada, link } = await givenReportedLink();
      const ids: number[] = [];
      for (const reason of ['phishing', 'malware', 'spam', 'illegal'] as const) {
        ids.push((await ctx.store.addReport(report(link.id, { reason }))).id);
      }
      await ctx.store.resolveReport(ids[1] ?? 0, 'dismiss', ada.user.id);
      const listed = async (open: boolean, limit = 100) =>
        (await ctx.store.listReports({ open, limit })).map((found) => found.id);
      assert.deepEqual(await listed(false), ids.toReversed());
      assert.deepEqual(await listed(true), [ids[3], ids[2], ids[0]]);
      assert.deepEqual(await listed(true, 2), [ids[3], ids[2]]);
      assert.deepEqual(await listed(false, 1), [ids[3]]);
    });

    it('resolves a report once; a second resolution returns it unchanged', async () => {
      const { ada, link } = await givenReportedLink();
      const added = await ctx.store.addReport(report(link.id));
      const resolved = await ctx.store.resolveReport(added.id, 'disable', ada.user.id);
      assert.deepEqual([resolved?.resolution, resolved?.resolvedBy], ['disable', ada.user.id]);
      assert.ok(resolved?.resolvedAt instanceof Date);
      assert.deepEqual({ ...resolved, resolvedAt: null, resolution: null, resolvedBy: null }, added);
      await tick();
      assert.deepEqual(await ctx.store.resolveReport(added.id, 'dismiss', null), resolved);
      assert.deepEqual(await ctx.store.findReport(added.id), resolved);
      const byCli = await ctx.store.resolveReport(
        (await ctx.store.addReport(report(link.id))).id,
        'block',
        null,
      );
      assert.deepEqual([byCli?.resolution, byCli?.resolvedBy], ['block', null]);
      assert.equal(await ctx.store.resolveReport(added.id + 1000, 'dismiss', null), undefined);
    });

    it('counts the open reports', async () => {
      const { link } = await givenReportedLink();
      assert.equal(await ctx.store.countOpenReports(), 0);
      const first = await ctx.store.addReport(report(link.id));
      await ctx.store.addReport(report(link.id));
      assert.equal(await ctx.store.countOpenReports(), 2);
      await ctx.store.resolveReport(first.id, 'suspend', null);
      assert.equal(await ctx.store.countOpenReports(), 1);
    });
  });
}

function auditCases(ctx: Context): void {
  describe('audit log', () => {
    it('lists entries newest first, of one workspace or all, paged before an id', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      const actor = { actorId: ada.user.id, actor: 'ada@example.com' };
      const entries = [
        { ...actor, workspaceId: team.id, action: 'member.role', target: 'bob@example.com' },
        { actorId: null, actor: 'cli', workspaceId: null, action: 'blocklist.add', target: 'evil.example' },
        { ...actor, workspaceId: team.id, action: 'key.create', target: 'snip_abc' },
        { ...actor, workspaceId: ada.workspace.id, action: 'link.disable', target: 'abc1234' },
        { ...actor, workspaceId: team.id, action: 'domain.add', target: 'go.acme.example' },
      ];
      for (const entry of entries) await ctx.store.addAudit(entry);
      const all = await ctx.store.listAudit({ limit: 100 });
      assert.deepEqual(
        all.map((entry) => entry.action),
        entries.map((entry) => entry.action).toReversed(),
      );
      assert.deepEqual(
        { ...all[3], id: 0, at: null },
        { ...entries[1], id: 0, at: null, before: null, after: null },
      );
      assert.ok(all.every((entry) => entry.at instanceof Date));
      const teams = await ctx.store.listAudit({ workspaceId: team.id, limit: 100 });
      assert.deepEqual(
        teams.map((entry) => entry.action),
        ['domain.add', 'key.create', 'member.role'],
      );
      const page = await ctx.store.listAudit({ workspaceId: team.id, limit: 2 });
      assert.deepEqual(page, teams.slice(0, 2));
      const next = await ctx.store.listAudit({ workspaceId: team.id, before: page.at(-1)?.id, limit: 2 });
      assert.deepEqual(next, teams.slice(2));
      assert.deepEqual(await ctx.store.listAudit({ before: all[1]?.id, limit: 2 }), all.slice(2, 4));
    });

    it('keeps what changed, before and after, as it was given', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const before = { role: 'member', scopes: ['links:read', 'stats:read'], note: null, n: 3 };
      const after = { role: 'admin', nested: { ok: true, quote: 'a "b" \\ c' }, n: 0.5 };
      await ctx.store.addAudit({
        actorId: ada.user.id,
        actor: 'ada@example.com',
        workspaceId: ada.workspace.id,
        action: 'member.role',
        target: 'bob@example.com',
        before,
        after,
      });
      const [entry] = await ctx.store.listAudit({ workspaceId: ada.workspace.id, limit: 10 });
      assert.deepEqual([entry?.before, entry?.after], [before, after]);
    });
  });
}

function deletionCases(ctx: Context): void {
  describe('deletions', () => {
    it('empties a team workspace: links deleted, keys revoked, members and invitations gone, suspended as deleted', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      await ctx.store.addMember(team.id, bob.user.id, 'admin');
      const domain = await givenDomain(ctx, 'go.acme.example', team.id);
      const links = [
        await givenLink(ctx, team.id, 'https://example.com/1'),
        await givenLink(ctx, team.id, 'https://example.com/2', { domainId: domain }),
      ];
      const kept = await givenLink(ctx, ada.workspace.id, 'https://example.com/1');
      await givenKey(ctx, team.id, bob.user.id, 'bob-team');
      await givenKey(ctx, team.id, null, 'cli-team');
      await ctx.store.replaceMainKey(team.id, 'snip_main', sha256('team-main'), ada.user.id);
      await ctx.store.createInvitation({
        workspaceId: team.id,
        email: 'carol@example.com',
        role: 'member',
        tokenHash: randomBytes(32),
        invitedBy: ada.user.id,
        expiresAt: new Date(Date.now() + DAY),
      });
      const versions = await ctx.store.abuseVersions();

      assert.equal(await ctx.store.deleteWorkspace(team.id), 'deleted');
      for (const link of links) {
        assert.equal(await ctx.store.findLinkByCode(link.domainId, link.code), undefined);
        assert.equal(await ctx.store.findLinkById(link.id), undefined);
        assert.equal(await ctx.store.isCodeIssued(link.domainId, link.code), true, 'codes stay issued');
      }
      assert.equal(await ctx.store.countLiveLinks(team.id), 0);
      assert.deepEqual(await ctx.store.findLinkById(kept.id), kept, 'other workspaces keep theirs');
      assert.deepEqual(await ctx.store.listLiveKeys(team.id), []);
      for (const text of ['bob-team', 'cli-team', 'team-main']) {
        assert.equal((await ctx.store.findKeyByHash(sha256(text)))?.revoked, true, text);
      }
      assert.deepEqual(await ctx.store.listMembers(team.id), []);
      assert.equal(await ctx.store.roleOf(team.id, ada.user.id), undefined);
      assert.deepEqual(
        (await ctx.store.workspacesOf(bob.user.id)).map(({ workspace }) => workspace.id),
        [bob.workspace.id],
      );
      assert.deepEqual(await ctx.store.listInvitations(team.id, new Date()), []);
      const gone = await ctx.store.findWorkspaceById(team.id);
      assert.equal(gone?.slug, 'acme', 'the address stays taken');
      assert.equal(gone?.suspended?.reason, 'deleted');
      assert.ok((await ctx.store.suspendedWorkspaceIds()).includes(team.id));
      assert.ok((await ctx.store.abuseVersions()).takedowns > versions.takedowns);
      assert.equal(
        (await ctx.store.createWorkspace('acme', 'Again', ctx.plan.id, bob.user.id)).kind,
        'slug-taken',
      );
    });

    it('refuses a personal workspace and one that does not exist', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const link = await givenLink(ctx, ada.workspace.id, 'https://example.com/1');
      assert.equal(await ctx.store.deleteWorkspace(ada.workspace.id), 'personal');
      assert.deepEqual(await ctx.store.findLinkById(link.id), link);
      assert.deepEqual(await ctx.store.findWorkspaceById(ada.workspace.id), ada.workspace);
      assert.equal(await ctx.store.deleteWorkspace(424242), 'not-found');
    });

    it('deletes a user: personal workspace emptied, sessions, memberships, keys and invitations gone, email replaced', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      await ctx.store.setUserOperator(bob.user.id, true);
      await ctx.store.setPasswordHash(bob.user.id, 'hash');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      await ctx.store.addMember(team.id, bob.user.id, 'admin');
      for (const [email, invitedBy] of [
        ['carol@example.com', bob.user.id],
        ['dave@example.com', ada.user.id],
      ] as const) {
        await ctx.store.createInvitation({
          workspaceId: team.id,
          email,
          role: 'admin',
          tokenHash: randomBytes(32),
          invitedBy,
          expiresAt: new Date(Date.now() + DAY),
        });
      }
      const own = await givenLink(ctx, bob.workspace.id, 'https://example.com/bob');
      const teamLink = await givenLink(ctx, team.id, 'https://example.com/team');
      await givenKey(ctx, bob.workspace.id, bob.user.id, 'bob-own');
      await givenKey(ctx, team.id, bob.user.id, 'bob-team');
      await givenKey(ctx, team.id, ada.user.id, 'ada-team');
      const bobSession = await givenSession(ctx, bob.user.id, 'b');
      const adaSession = await givenSession(ctx, ada.user.id, 'a');

      assert.equal(await ctx.store.deleteUser(bob.user.id), 'deleted');
      assert.equal(await ctx.store.findLinkById(own.id), undefined);
      assert.equal(await ctx.store.countLiveLinks(bob.workspace.id), 0);
      assert.equal((await ctx.store.findWorkspaceById(bob.workspace.id))?.suspended?.reason, 'deleted');
      assert.deepEqual(await ctx.store.findLinkById(teamLink.id), teamLink, 'what the team holds stays');
      assert.equal(await sessionOf(ctx, bobSession), undefined);
      assert.equal((await sessionOf(ctx, adaSession))?.userId, ada.user.id);
      assert.equal(await ctx.store.roleOf(team.id, bob.user.id), undefined);
      assert.deepEqual(await ctx.store.workspacesOf(bob.user.id), []);
      assert.deepEqual(
        (await ctx.store.listInvitations(team.id, new Date())).map((one) => one.email),
        ['dave@example.com'],
        'the invitations they made end with them',
      );
      for (const [text, revoked] of [
        ['bob-own', true],
        ['bob-team', true],
        ['ada-team', false],
      ] as const) {
        assert.equal((await ctx.store.findKeyByHash(sha256(text)))?.revoked, revoked, text);
      }
      const user = await ctx.store.findUserById(bob.user.id);
      assert.ok(user, 'the row stays');
      assert.notEqual(user.email, 'bob@example.com');
      assert.deepEqual([user.passwordHash, user.operator], [null, false]);
      assert.ok(user.suspendedAt instanceof Date, 'nobody signs in as it');
      assert.equal(await ctx.store.findUserByEmail('bob@example.com'), undefined);
      assert.equal((await ctx.store.createAccount('bob@example.com', ctx.plan.id, null)).kind, 'created');
      assert.equal(await ctx.store.deleteUser(424242), 'not-found');
    });

    it('frees the key places the deleted user held in a team workspace', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      await ctx.store.addMember(team.id, bob.user.id, 'member');
      await givenKey(ctx, team.id, bob.user.id, 'bob-1');
      await givenKey(ctx, team.id, bob.user.id, 'bob-2');
      assert.equal(await ctx.store.deleteUser(bob.user.id), 'deleted');
      for (let n = 1; n <= MAX_KEYS_PER_ACCOUNT; n++) await givenKey(ctx, team.id, ada.user.id, `ada-${n}`);
      assert.equal((await ctx.store.listLiveKeys(team.id)).length, MAX_KEYS_PER_ACCOUNT);
    });

    it('refuses to delete the only owner of a team workspace, then deletes them once another owns it', async () => {
      const ada = await givenUser(ctx, 'ada@example.com');
      const bob = await givenUser(ctx, 'bob@example.com');
      const team = await givenTeam(ctx, 'acme', 'Acme', ada.user.id);
      await ctx.store.addMember(team.id, bob.user.id, 'admin');
      const session = await givenSession(ctx, ada.user.id, 'a');
      const link = await givenLink(ctx, ada.workspace.id, 'https://example.com/1');

      assert.equal(await ctx.store.deleteUser(ada.user.id), 'last-owner');
      assert.deepEqual(await ctx.store.findUserById(ada.user.id), ada.user);
      assert.deepEqual(await ctx.store.findLinkById(link.id), link);
      assert.equal((await sessionOf(ctx, session))?.userId, ada.user.id);
      assert.equal(await ctx.store.roleOf(team.id, ada.user.id), 'owner');

      assert.equal(await ctx.store.changeRole(team.id, bob.user.id, 'owner'), 'done');
      assert.equal(await ctx.store.deleteUser(ada.user.id), 'deleted');
      assert.deepEqual(await ctx.store.listMembers(team.id).then((members) => members.map((m) => m.userId)), [
        bob.user.id,
      ]);
      assert.equal((await ctx.store.findWorkspaceById(team.id))?.suspended, null, 'the team goes on');
    });
  });
}
