/**
 * The store contract: what every Store adapter must do, written against the ports only so the
 * same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated, empty store.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Link, NewLink, Plan, PlanSettings, Workspace } from '../../../src/core/entities.ts';
import { UNKNOWN_HEALTH } from '../../../src/core/link-health.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT, SCOPES } from '../../../src/core/scopes.ts';
import { runCompatContract } from './compat-contract.ts';
import { runStatsContract } from './stats-contract.ts';

let codeCounter = 0;
/** A fresh 7-character code, unique within the run. */
export function nextCode(): string {
  codeCounter += 1;
  return `t${codeCounter.toString(36).padStart(6, '0')}`;
}

export function newLink(workspaceId: number, url: string, overrides: Partial<NewLink> = {}): NewLink {
  return {
    code: nextCode(),
    workspaceId,
    groupId: null,
    longUrl: url,
    normalizedUrl: url,
    urlHash: createHash('sha256').update(url).digest('hex'),
    title: '',
    ...overrides,
    domainId: overrides.domainId ?? 0,
  };
}

export function planInput(overrides: Partial<PlanSettings> = {}): PlanSettings {
  return { name: 'pro', apiAccess: true, urlQuota: 100, rateLimitPerHour: 1000, ...overrides };
}

/** A user with their personal workspace; the workspace, which owns links, groups and keys. */
export async function givenAccount(store: Store, email: string, plan: Plan): Promise<Workspace> {
  const result = await store.createAccount(email, plan.id, null);
  assert.equal(result.kind, 'created');
  return result.account.workspace;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

export function runStoreContract(name: string, open: () => Promise<Store>): void {
  describe(`${name} store contract`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    describe('plans', () => {
      it('creates a plan and then updates it by name', async () => {
        const created = await store.upsertPlan(planInput({ name: 'gold', urlQuota: 5 }));
        const updated = await store.upsertPlan(
          planInput({ name: 'gold', apiAccess: false, urlQuota: 7, rateLimitPerHour: 3 }),
        );
        assert.equal(updated.id, created.id);
        assert.deepEqual(updated, {
          id: created.id,
          name: 'gold',
          apiAccess: false,
          urlQuota: 7,
          rateLimitPerHour: 3,
          price: null,
          public: false,
          description: '',
          stripePriceId: null,
        });
        const sold = await store.upsertPlan(
          planInput({
            name: 'gold',
            price: { amount: 900, currency: 'EUR' },
            public: true,
            description: 'For teams',
            stripePriceId: 'price_gold',
          }),
        );
        assert.deepEqual(
          [sold.price, sold.public, sold.description, sold.stripePriceId],
          [{ amount: 900, currency: 'EUR' }, true, 'For teams', 'price_gold'],
        );
        await store.upsertPlan(
          planInput({ name: 'gold', apiAccess: false, urlQuota: 7, rateLimitPerHour: 3 }),
        );
        assert.deepEqual(await store.findPlanByName('gold'), updated);
        assert.deepEqual(await store.listPlans(), [updated]);
      });

      it('finds no plan under an unknown name', async () => {
        assert.equal(await store.findPlanByName('nope'), undefined);
      });

      it('lists plans in creation order', async () => {
        await store.upsertPlan(planInput({ name: 'free', apiAccess: false }));
        await store.upsertPlan(planInput({ name: 'pro' }));
        assert.deepEqual(
          (await store.listPlans()).map((plan) => [plan.name, plan.apiAccess]),
          [
            ['free', false],
            ['pro', true],
          ],
        );
      });

      it('inserts the default plans only when no plan exists', async () => {
        const defaults = [planInput({ name: 'free', apiAccess: false }), planInput({ name: 'pro' })];
        await store.ensureDefaultPlans(defaults);
        assert.deepEqual(
          (await store.listPlans()).map((plan) => plan.name),
          ['free', 'pro'],
        );
        await store.upsertPlan(planInput({ name: 'free', urlQuota: 1 }));
        await store.ensureDefaultPlans(defaults);
        const plans = await store.listPlans();
        assert.equal(plans.length, 2);
        assert.equal(plans.find((plan) => plan.name === 'free')?.urlQuota, 1, 'an edited plan is not reset');
      });

      it('leaves existing plans alone even when none of the defaults exists', async () => {
        await store.upsertPlan(planInput({ name: 'custom' }));
        await store.ensureDefaultPlans([planInput({ name: 'free' })]);
        assert.deepEqual(
          (await store.listPlans()).map((plan) => plan.name),
          ['custom'],
        );
      });
    });

    describe('users and their personal workspaces', () => {
      it('creates a user with a personal workspace on the plan, the user its owner', async () => {
        const plan = await store.upsertPlan(planInput());
        const before = Date.now();
        const result = await store.createAccount('Ada@Example.COM', plan.id, 'scrypt$hash');
        assert.equal(result.kind, 'created');
        if (result.kind !== 'created') return;
        const { user, workspace } = result.account;
        assert.equal(user.email, 'ada@example.com');
        assert.equal(user.passwordHash, 'scrypt$hash');
        assert.equal(user.emailVerified, false);
        assert.equal(user.operator, false);
        assert.equal(user.lastWorkspaceId, workspace.id);
        assert.ok(user.createdAt.getTime() >= before - 1000 && user.createdAt.getTime() <= Date.now() + 1000);
        assert.deepEqual(workspace.plan, plan);
        assert.equal(workspace.personalOf, user.id);
        assert.match(workspace.slug, /^ada-\d+$/);
        assert.equal(workspace.name, 'ada@example.com');
        assert.equal(await store.roleOf(workspace.id, user.id), 'owner');
      });

      it('refuses a second user with the same email in any case', async () => {
        const plan = await store.upsertPlan(planInput());
        await givenAccount(store, 'ada@example.com', plan);
        assert.deepEqual(await store.createAccount('ADA@example.com', plan.id, null), {
          kind: 'email-taken',
        });
      });

      it('finds a user by email in any case and by id, with their personal workspace', async () => {
        const plan = await store.upsertPlan(planInput());
        const workspace = await givenAccount(store, 'ada@example.com', plan);
        const account = await store.findAccountByEmail('Ada@EXAMPLE.com');
        assert.deepEqual(account?.workspace, workspace);
        assert.deepEqual(await store.findUserById(workspace.personalOf as number), account?.user);
        assert.deepEqual(await store.findUserByEmail('ADA@example.com'), account?.user);
        assert.deepEqual(await store.findWorkspaceById(workspace.id), workspace);
        assert.deepEqual(await store.findWorkspaceBySlug(workspace.slug), workspace);
        assert.equal(await store.findAccountByEmail('bob@example.com'), undefined);
        assert.equal(await store.findUserById(9999), undefined);
      });

      it('lists every user with their workspace, oldest first', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        assert.deepEqual(
          (await store.listAccounts()).map((account) => account.workspace),
          [ada, bob],
        );
      });

      it('moves a workspace to another plan', async () => {
        const free = await store.upsertPlan(planInput({ name: 'free', apiAccess: false }));
        const pro = await store.upsertPlan(planInput({ name: 'pro' }));
        const workspace = await givenAccount(store, 'ada@example.com', free);
        await store.setWorkspacePlan(workspace.id, pro.id);
        assert.deepEqual((await store.findWorkspaceById(workspace.id))?.plan, pro);
      });

      it('sets a password, verifies an email and links an OIDC identity once', async () => {
        const plan = await store.upsertPlan(planInput());
        const { personalOf } = await givenAccount(store, 'ada@example.com', plan);
        const id = personalOf as number;
        await store.setPasswordHash(id, 'scrypt$new');
        await store.setEmailVerified(id);
        await store.linkIdentity(id, 'https://idp.example', 'sub-1');
        await store.linkIdentity(id, 'https://idp.example', 'sub-1');
        const user = await store.findUserByIdentity('https://idp.example', 'sub-1');
        assert.equal(user?.id, id);
        assert.equal(user?.passwordHash, 'scrypt$new');
        assert.equal(user?.emailVerified, true);
        assert.equal(await store.findUserByIdentity('https://other.example', 'sub-1'), undefined);
      });
    });

    describe('API keys', () => {
      it('stores a key and resolves its hash to the owner and plan', async () => {
        const plan = await store.upsertPlan(planInput());
        const account = await givenAccount(store, 'ada@example.com', plan);
        const info = await store.replaceMainKey(account.id, 'snip_abc', sha256('key-1'), null);
        assert.equal(info.workspaceId, account.id);
        assert.equal(info.prefix, 'snip_abc');
        assert.equal(info.revokedAt, null);
        const owner = await store.findKeyByHash(sha256('key-1'));
        assert.deepEqual(owner, {
          keyId: info.id,
          hash: sha256('key-1'),
          prefix: 'snip_abc',
          revoked: false,
          workspaceId: account.id,
          plan,
          scopes: [...SCOPES],
          userId: null,
          role: 'owner',
          suspended: false,
        });
        assert.deepEqual(await store.findMainKey(account.id), info);
        assert.equal(info.main, true);
        assert.deepEqual(info.scopes, [...SCOPES]);
        assert.equal(info.lastUsedAt, null);
      });

      it('revokes the old key when a new one replaces it', async () => {
        const plan = await store.upsertPlan(planInput());
        const account = await givenAccount(store, 'ada@example.com', plan);
        const old = await store.replaceMainKey(account.id, 'snip_old', sha256('old'), null);
        const fresh = await store.replaceMainKey(account.id, 'snip_new', sha256('new'), null);
        assert.notEqual(fresh.id, old.id);
        assert.equal((await store.findKeyByHash(sha256('old')))?.revoked, true);
        assert.equal((await store.findKeyByHash(sha256('new')))?.revoked, false);
        assert.deepEqual(await store.findMainKey(account.id), fresh);
      });

      it('does not resolve an unknown hash', async () => {
        assert.equal(await store.findKeyByHash(randomBytes(32)), undefined);
      });

      it('has no live key for an account that never got one', async () => {
        const plan = await store.upsertPlan(planInput());
        const account = await givenAccount(store, 'ada@example.com', plan);
        assert.equal(await store.findMainKey(account.id), undefined);
      });

      it('adds named keys with scopes, lists the live ones main first, and revokes only those', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const main = await store.replaceMainKey(ada.id, 'snip_main', sha256('main'), null);
        const added = await store.addKey(ada.id, {
          createdBy: null,
          name: 'CI',
          scopes: ['links:read', 'links:create'],
          prefix: 'snip_ci',
          hash: sha256('ci'),
        });
        assert.equal(added.kind, 'created');
        assert.equal(added.key.main, false);
        assert.equal(added.key.name, 'CI');
        assert.deepEqual(added.key.scopes, ['links:create', 'links:read']);
        assert.deepEqual((await store.findKeyByHash(sha256('ci')))?.scopes, ['links:create', 'links:read']);
        assert.deepEqual(
          (await store.listLiveKeys(ada.id)).map((key) => [key.prefix, key.main]),
          [
            ['snip_main', true],
            ['snip_ci', false],
          ],
        );
        assert.equal(await store.revokeKey(bob.id, added.key.id), false, "not bob's key");
        assert.equal(await store.revokeKey(ada.id, main.id), false, 'the main key is rotated, not revoked');
        assert.equal(await store.revokeKey(ada.id, added.key.id), true);
        assert.equal(await store.revokeKey(ada.id, added.key.id), false, 'already revoked');
        assert.equal((await store.findKeyByHash(sha256('ci')))?.revoked, true);
        assert.deepEqual(
          (await store.listLiveKeys(ada.id)).map((key) => key.prefix),
          ['snip_main'],
        );
      });

      it('holds at most the allowed number of live keys, the main key included', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        await store.replaceMainKey(ada.id, 'snip_main', sha256('main'), null);
        const add = (n: number) =>
          store.addKey(ada.id, {
            createdBy: null,
            name: `k${n}`,
            scopes: ['links:read'],
            prefix: `snip_${n}`,
            hash: sha256(`k${n}`),
          });
        const results = [];
        for (let n = 1; n < MAX_KEYS_PER_ACCOUNT; n++) results.push(await add(n));
        assert.ok(results.every((result) => result.kind === 'created'));
        assert.deepEqual(await add(99), { kind: 'too-many' });
        const first = results[0];
        assert.ok(first?.kind === 'created');
        await store.revokeKey(ada.id, first.key.id);
        assert.equal((await add(100)).kind, 'created', 'a revoked key frees its place');
      });

      it('rotating the main key leaves the further keys live', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        await store.replaceMainKey(ada.id, 'snip_old', sha256('old'), null);
        await store.addKey(ada.id, {
          createdBy: null,
          name: 'CI',
          scopes: ['links:read'],
          prefix: 'snip_ci',
          hash: sha256('ci'),
        });
        await store.replaceMainKey(ada.id, 'snip_new', sha256('new'), null);
        assert.equal((await store.findKeyByHash(sha256('ci')))?.revoked, false);
        assert.deepEqual(
          (await store.listLiveKeys(ada.id)).map((key) => key.prefix),
          ['snip_new', 'snip_ci'],
        );
      });

      it('records the latest use of keys in a batch, never going back in time', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const main = await store.replaceMainKey(ada.id, 'snip_main', sha256('main'), null);
        const later = Date.UTC(2026, 10, 23, 12, 0, 0);
        await store.touchKeys([{ keyId: main.id, at: later }]);
        await store.touchKeys([{ keyId: main.id, at: later - 60_000 }]);
        await store.touchKeys([]);
        assert.equal((await store.findMainKey(ada.id))?.lastUsedAt?.getTime(), later);
      });

      it('reports the plan the account holds now', async () => {
        const free = await store.upsertPlan(planInput({ name: 'free', apiAccess: false }));
        const pro = await store.upsertPlan(planInput({ name: 'pro' }));
        const account = await givenAccount(store, 'ada@example.com', pro);
        await store.replaceMainKey(account.id, 'snip_abc', sha256('key'), null);
        await store.setWorkspacePlan(account.id, free.id);
        assert.deepEqual((await store.findKeyByHash(sha256('key')))?.plan, free);
      });
    });

    describe('groups', () => {
      it('creates groups and lists those of the account', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const news = await store.createGroup(ada.id, 'News', 'news');
        const blog = await store.createGroup(ada.id, 'Blog', 'blog');
        await store.createGroup(bob.id, 'Other', 'other');
        assert.equal(news.kind, 'created');
        assert.equal(blog.kind, 'created');
        assert.deepEqual(news.group, {
          id: news.group.id,
          workspaceId: ada.id,
          name: 'News',
          apiId: 'news',
          createdAt: news.group.createdAt,
        });
        assert.deepEqual(await store.listGroups(ada.id), [news.group, blog.group]);
      });

      it('refuses an API identifier the account already uses', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        await store.createGroup(ada.id, 'News', 'news');
        assert.deepEqual(await store.createGroup(ada.id, 'Other news', 'news'), { kind: 'api-id-taken' });
      });

      it('allows the same API identifier in two accounts', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        assert.equal((await store.createGroup(ada.id, 'News', 'news')).kind, 'created');
        assert.equal((await store.createGroup(bob.id, 'News', 'news')).kind, 'created');
      });

      it('finds a group by id or API identifier only for its owner', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const result = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(result.kind, 'created');
        const group = result.group;
        assert.deepEqual(await store.findGroupOfWorkspace(ada.id, { id: group.id }), group);
        assert.deepEqual(await store.findGroupOfWorkspace(ada.id, { apiId: 'news' }), group);
        assert.equal(await store.findGroupOfWorkspace(bob.id, { id: group.id }), undefined);
        assert.equal(await store.findGroupOfWorkspace(bob.id, { apiId: 'news' }), undefined);
        assert.equal(await store.findGroupOfWorkspace(ada.id, { apiId: 'blog' }), undefined);
      });
    });

    describe('links', () => {
      async function givenQuota(urlQuota: number): Promise<Workspace> {
        const plan = await store.upsertPlan(planInput({ name: `quota-${urlQuota}`, urlQuota }));
        return givenAccount(store, `quota-${urlQuota}@example.com`, plan);
      }

      it('stores a new link and finds it by code', async () => {
        const account = await givenQuota(10);
        const group = await store.createGroup(account.id, 'News', 'news');
        assert.equal(group.kind, 'created');
        const input = newLink(account.id, 'https://example.com/a', {
          longUrl: 'HTTPS://Example.com:443/a',
          title: 'Example A',
          groupId: group.group.id,
        });
        const result = await store.insertLinkWithinQuota(input);
        assert.equal(result.kind, 'created');
        assert.deepEqual(result.link, {
          id: result.link.id,
          code: input.code,
          domainId: 0,
          workspaceId: account.id,
          groupId: group.group.id,
          longUrl: 'HTTPS://Example.com:443/a',
          normalizedUrl: 'https://example.com/a',
          title: 'Example A',
          clicks: 0,
          botHits: 0,
          uniqueVisitors: 0,
          createdAt: result.link.createdAt,
          updatedAt: result.link.createdAt,
          expiresAt: null,
          maxClicks: null,
          limitUsed: 0,
          passwordHash: null,
          rules: [],
          disabled: null,
          forwardQuery: false,
          preview: null,
          publicStats: false,
          test: null,
          archived: false,
          lastClickedAt: null,
          trackConversions: null,
          tracksConversions: false,
          leads: 0,
          sales: 0,
          revenue: {},
          health: UNKNOWN_HEALTH,
        });
        assert.deepEqual(await store.findLinkByCode(0, input.code), result.link);
        assert.deepEqual(await store.findLiveLinkByUrlHash(account.id, 0, input.urlHash), result.link);
        assert.equal(await store.findLinkByCode(0, 'zzzzzzz'), undefined);
      });

      it('answers duplicate with the existing link for a URL the account already holds', async () => {
        const account = await givenQuota(10);
        const first = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.equal(first.kind, 'created');
        const second = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.deepEqual(second, { kind: 'duplicate', existing: first.link });
        assert.equal(await store.countLiveLinks(account.id), 1);
      });

      it('lets two accounts link the same URL', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        assert.equal(
          (await store.insertLinkWithinQuota(newLink(ada.id, 'https://example.com/'))).kind,
          'created',
        );
        assert.equal(
          (await store.insertLinkWithinQuota(newLink(bob.id, 'https://example.com/'))).kind,
          'created',
        );
      });

      it('answers code-taken for a code already used, by any account', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const first = newLink(ada.id, 'https://example.com/a');
        await store.insertLinkWithinQuota(first);
        const clash = newLink(bob.id, 'https://example.com/b', { code: first.code });
        assert.deepEqual(await store.insertLinkWithinQuota(clash), { kind: 'code-taken' });
        assert.equal(await store.countLiveLinks(bob.id), 0);
      });

      it('never gives out the code of a deleted link again', async () => {
        const account = await givenQuota(10);
        const first = newLink(account.id, 'https://example.com/a');
        await store.insertLinkWithinQuota(first);
        assert.equal(await store.deleteLink(account.id, 0, first.code), true);
        const reuse = newLink(account.id, 'https://example.com/b', { code: first.code });
        assert.deepEqual(await store.insertLinkWithinQuota(reuse), { kind: 'code-taken' });
      });

      it('answers duplicate rather than code-taken when both apply', async () => {
        const account = await givenQuota(10);
        const first = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.equal(first.kind, 'created');
        const again = newLink(account.id, 'https://example.com/a', { code: first.link.code });
        assert.deepEqual(await store.insertLinkWithinQuota(again), {
          kind: 'duplicate',
          existing: first.link,
        });
      });

      it('refuses the link past the quota, exactly at the quota', async () => {
        const account = await givenQuota(3);
        for (const path of ['a', 'b', 'c']) {
          const result = await store.insertLinkWithinQuota(
            newLink(account.id, `https://example.com/${path}`),
          );
          assert.equal(result.kind, 'created');
        }
        const over = newLink(account.id, 'https://example.com/d');
        assert.deepEqual(await store.insertLinkWithinQuota(over), { kind: 'quota-exceeded' });
        assert.equal(await store.findLinkByCode(0, over.code), undefined, 'the refused row is rolled back');
        assert.equal(await store.countLiveLinks(account.id), 3);
      });

      it('frees the code of a link refused for quota', async () => {
        const account = await givenQuota(0);
        const refused = newLink(account.id, 'https://example.com/a');
        assert.deepEqual(await store.insertLinkWithinQuota(refused), { kind: 'quota-exceeded' });
        const other = await givenQuota(1);
        const retry = newLink(other.id, 'https://example.com/a', { code: refused.code });
        assert.equal((await store.insertLinkWithinQuota(retry)).kind, 'created');
      });

      it('answers duplicate rather than quota-exceeded when the account is at its quota', async () => {
        const account = await givenQuota(1);
        const first = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.equal(first.kind, 'created');
        const again = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.deepEqual(again, { kind: 'duplicate', existing: first.link });
      });

      it('applies a plan change to the quota at once', async () => {
        const account = await givenQuota(1);
        await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        const bigger = await store.upsertPlan(planInput({ name: 'bigger', urlQuota: 2 }));
        await store.setWorkspacePlan(account.id, bigger.id);
        const result = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/b'));
        assert.equal(result.kind, 'created');
      });

      it('soft-deletes: the link is no longer found, and the URL and a quota slot are free again', async () => {
        const account = await givenQuota(1);
        const first = newLink(account.id, 'https://example.com/a');
        await store.insertLinkWithinQuota(first);
        assert.equal(await store.deleteLink(account.id, 0, first.code), true);
        assert.equal(await store.findLinkByCode(0, first.code), undefined);
        assert.equal(await store.findLiveLinkByUrlHash(account.id, 0, first.urlHash), undefined);
        assert.equal(await store.countLiveLinks(account.id), 0);
        const again = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/a'));
        assert.equal(again.kind, 'created');
      });

      it('deletes only a live link of the same account', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const link = newLink(ada.id, 'https://example.com/a');
        await store.insertLinkWithinQuota(link);
        assert.equal(await store.deleteLink(bob.id, 0, link.code), false);
        assert.equal(await store.deleteLink(ada.id, 0, 'missing'), false);
        assert.equal(await store.deleteLink(ada.id, 0, link.code), true);
        assert.equal(await store.deleteLink(ada.id, 0, link.code), false, 'a second delete changes nothing');
        assert.equal(await store.countLiveLinks(ada.id), 0);
      });

      it('does not free a quota slot twice for one deleted link', async () => {
        const account = await givenQuota(1);
        const link = newLink(account.id, 'https://example.com/a');
        await store.insertLinkWithinQuota(link);
        await store.deleteLink(account.id, 0, link.code);
        await store.deleteLink(account.id, 0, link.code);
        assert.equal(
          (await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/b'))).kind,
          'created',
        );
        const over = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/c'));
        assert.equal(over.kind, 'quota-exceeded');
      });

      it('counts only the live links of the account', async () => {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        const links = ['a', 'b', 'c'].map((path) => newLink(ada.id, `https://example.com/${path}`));
        for (const link of links) await store.insertLinkWithinQuota(link);
        await store.insertLinkWithinQuota(newLink(bob.id, 'https://example.com/a'));
        await store.deleteLink(ada.id, 0, links[0]?.code ?? '');
        assert.equal(await store.countLiveLinks(ada.id), 2);
        assert.equal(await store.countLiveLinks(bob.id), 1);
      });

      it('creates exactly one link when 50 requests store the same URL at once', async () => {
        const account = await givenQuota(100);
        const results = await Promise.all(
          Array.from({ length: 50 }, () =>
            store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/')),
          ),
        );
        const created = results.filter((result) => result.kind === 'created');
        assert.equal(created.length, 1);
        for (const result of results) {
          if (result.kind === 'duplicate') assert.equal(result.existing.code, created[0]?.link.code);
          else assert.equal(result.kind, 'created');
        }
        assert.equal(await store.countLiveLinks(account.id), 1);
      });

      it('never passes the quota when 40 distinct links are stored at once against a quota of 10', async () => {
        const account = await givenQuota(10);
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            store.insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`)),
          ),
        );
        assert.equal(results.filter((result) => result.kind === 'created').length, 10);
        assert.equal(results.filter((result) => result.kind === 'quota-exceeded').length, 30);
        assert.equal(await store.countLiveLinks(account.id), 10);
      });

      it('answers creates made at once as if one after another: taken codes, duplicates, quota, tags', async () => {
        const account = await givenQuota(4);
        const first = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/first'));
        assert.equal(first.kind, 'created');
        const paths = ['a', 'taken', 'a', 'b', 'first', 'c', 'd'];
        const urlOf = (index: number) => `https://example.com/${paths[index]}`;
        // The first create of `a` has tags; `taken` asks for the code of `first`.
        const extras: Array<Partial<NewLink>> = [{ tags: ['t1', 't2'] }, { code: first.link.code }];
        const results = await Promise.all(
          paths.map((_, i) => store.insertLinkWithinQuota(newLink(account.id, urlOf(i), extras[i]))),
        );
        // The order among concurrent creates is the store's (PostgreSQL's pool may reorder them);
        // what must hold is what some one-after-another order gives.
        const kinds = results.map((result) => result.kind);
        assert.equal(kinds[1], 'code-taken');
        const dupOfFirst = results[4];
        assert.ok(dupOfFirst?.kind === 'duplicate');
        assert.equal(dupOfFirst.existing.code, first.link.code);
        // Three slots are left for four new URLs (a, b, c, d): one of them finds the quota full.
        const ofA = [results[0], results[2]];
        const ofOthers = [results[3], results[5], results[6]].map((result) => result?.kind).sort();
        const createdA = ofA.find((result) => result?.kind === 'created');
        if (createdA?.kind === 'created') {
          // `a` took a slot: its other create is its duplicate, and b, c or d found the quota full.
          const duplicateA = ofA.find((result) => result?.kind === 'duplicate');
          assert.ok(duplicateA?.kind === 'duplicate');
          assert.equal(duplicateA.existing.code, createdA.link.code);
          assert.deepEqual(ofOthers, ['created', 'created', 'quota-exceeded']);
          if (createdA === results[0])
            assert.deepEqual((await store.tagsOf([createdA.link.id])).get(createdA.link.id), ['t1', 't2']);
        } else {
          // b, c and d took the slots first: both creates of `a` found the quota full.
          assert.deepEqual(
            ofA.map((result) => result?.kind),
            ['quota-exceeded', 'quota-exceeded'],
          );
          assert.deepEqual(ofOthers, ['created', 'created', 'created']);
        }
        assert.equal(await store.countLiveLinks(account.id), 4);
        assert.equal((await store.findLinkByCode(0, first.link.code))?.longUrl, 'https://example.com/first');
        // A refused create leaves nothing behind.
        const refused = kinds.flatMap((kind, i) => (kind === 'quota-exceeded' ? [urlOf(i)] : []));
        for (const url of new Set([urlOf(1), ...refused]))
          assert.equal(
            await store.findLiveLinkByUrlHash(account.id, 0, newLink(account.id, url).urlHash),
            undefined,
          );
      });
    });

    describe('clicks', () => {
      async function givenLinks(email: string, count: number): Promise<Link[]> {
        const plan = await store.upsertPlan(planInput());
        const account = await givenAccount(store, email, plan);
        const links: Link[] = [];
        for (let i = 0; i < count; i++) {
          const result = await store.insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`));
          assert.equal(result.kind, 'created');
          links.push(result.link);
        }
        return links;
      }

      async function countsOf(link: Link): Promise<[number, number]> {
        const found = await store.findLinkByCode(0, link.code);
        assert.ok(found, `link ${link.code} is found`);
        return [found.clicks, found.botHits];
      }

      it('adds the clicks and bot hits of a batch to each link', async () => {
        const [a, b] = await givenLinks('ada@example.com', 2);
        assert.ok(a && b);
        await store.addClicks([
          { linkId: a.id, day: '2024-03-01', clicks: 3, botHits: 1 },
          { linkId: b.id, day: '2024-03-01', clicks: 0, botHits: 4 },
        ]);
        await store.addClicks([{ linkId: a.id, day: '2024-03-02', clicks: 2, botHits: 0 }]);
        assert.deepEqual(await countsOf(a), [5, 1]);
        assert.deepEqual(await countsOf(b), [0, 4]);
      });

      it('adds up two entries for the same link and day in one batch', async () => {
        const [link] = await givenLinks('ada@example.com', 1);
        assert.ok(link);
        await store.addClicks([
          { linkId: link.id, day: '2024-03-01', clicks: 2, botHits: 1 },
          { linkId: link.id, day: '2024-03-01', clicks: 5, botHits: 2 },
        ]);
        assert.deepEqual(await countsOf(link), [7, 3]);
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 7 },
        ]);
      });

      it('keeps human clicks per day of a link over an inclusive range, oldest first', async () => {
        const [link] = await givenLinks('ada@example.com', 1);
        assert.ok(link);
        await store.addClicks([
          { linkId: link.id, day: '2024-03-05', clicks: 4, botHits: 0 },
          { linkId: link.id, day: '2024-02-29', clicks: 1, botHits: 0 },
          { linkId: link.id, day: '2024-03-02', clicks: 2, botHits: 0 },
          { linkId: link.id, day: '2024-03-03', clicks: 0, botHits: 9 },
          { linkId: link.id, day: '2024-03-06', clicks: 8, botHits: 0 },
        ]);
        await store.addClicks([{ linkId: link.id, day: '2024-03-02', clicks: 1, botHits: 0 }]);
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-02', '2024-03-05'), [
          { day: '2024-03-02', clicks: 3 },
          { day: '2024-03-05', clicks: 4 },
        ]);
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-03', '2024-03-04'), []);
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-06', '2024-03-02'), []);
      });

      it('sums the clicks per day over the links of one account only', async () => {
        const [a, b] = await givenLinks('ada@example.com', 2);
        const [other] = await givenLinks('bob@example.com', 1);
        assert.ok(a && b && other);
        await store.addClicks([
          { linkId: a.id, day: '2024-12-31', clicks: 1, botHits: 0 },
          { linkId: b.id, day: '2024-12-31', clicks: 2, botHits: 5 },
          { linkId: b.id, day: '2025-01-01', clicks: 3, botHits: 0 },
          { linkId: other.id, day: '2024-12-31', clicks: 50, botHits: 0 },
          { linkId: a.id, day: '2025-01-02', clicks: 7, botHits: 0 },
        ]);
        assert.deepEqual(await store.dailyClicksOfWorkspace(a.workspaceId, '2024-12-31', '2025-01-01'), [
          { day: '2024-12-31', clicks: 3 },
          { day: '2025-01-01', clicks: 3 },
        ]);
        assert.deepEqual(await store.dailyClicksOfWorkspace(other.workspaceId, '2024-01-01', '2025-12-31'), [
          { day: '2024-12-31', clicks: 50 },
        ]);
      });

      it('still counts clicks on a deleted link', async () => {
        const [link] = await givenLinks('ada@example.com', 1);
        assert.ok(link);
        assert.equal(await store.deleteLink(link.workspaceId, 0, link.code), true);
        await store.addClicks([{ linkId: link.id, day: '2024-03-01', clicks: 2, botHits: 1 }]);
        assert.deepEqual(await store.dailyClicksOfLink(link.id, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 2 },
        ]);
        assert.deepEqual(await store.dailyClicksOfWorkspace(link.workspaceId, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 2 },
        ]);
      });

      it('ignores an unknown link without losing the rest of the batch', async () => {
        const [a, b] = await givenLinks('ada@example.com', 2);
        assert.ok(a && b);
        await store.addClicks([
          { linkId: a.id, day: '2024-03-01', clicks: 1, botHits: 1 },
          { linkId: b.id + 1000, day: '2024-03-01', clicks: 5, botHits: 5 },
          { linkId: b.id, day: '2024-03-01', clicks: 2, botHits: 0 },
        ]);
        assert.deepEqual(await countsOf(a), [1, 1]);
        assert.deepEqual(await countsOf(b), [2, 0]);
        assert.deepEqual(await store.dailyClicksOfWorkspace(a.workspaceId, '2024-03-01', '2024-03-01'), [
          { day: '2024-03-01', clicks: 3 },
        ]);
        assert.deepEqual(await store.dailyClicksOfLink(b.id + 1000, '2024-03-01', '2024-03-01'), []);
      });

      it('accepts an empty batch', async () => {
        await store.addClicks([]);
      });

      it('refuses a day that is not a calendar day as YYYY-MM-DD, writing nothing', async () => {
        const [link] = await givenLinks('ada@example.com', 1);
        assert.ok(link);
        for (const day of ['2023-02-29', '2024-13-01', '2024-3-01', '01/03/2024', '']) {
          await assert.rejects(store.dailyClicksOfLink(link.id, day, '2024-12-31'), RangeError, day);
          await assert.rejects(
            store.dailyClicksOfWorkspace(link.workspaceId, '2024-01-01', day),
            RangeError,
            day,
          );
        }
        await assert.rejects(
          store.addClicks([
            { linkId: link.id, day: '2024-03-01', clicks: 1, botHits: 0 },
            { linkId: link.id, day: '2024-02-30', clicks: 1, botHits: 0 },
          ]),
          RangeError,
        );
        assert.deepEqual(await countsOf(link), [0, 0]);
      });
    });

    describe('bulk insert', () => {
      async function givenQuota(urlQuota: number): Promise<Workspace> {
        const plan = await store.upsertPlan(planInput({ name: `bulk-${urlQuota}`, urlQuota }));
        return givenAccount(store, 'bulk@example.com', plan);
      }

      it('inserts many links, each found by its code, and counts them against the quota', async () => {
        // More than one transaction's worth on SQLite.
        const count = 12_000;
        const account = await givenQuota(count + 1);
        const links = Array.from({ length: count }, (_, i) =>
          newLink(account.id, `https://example.com/${i}`, { title: `Page ${i}` }),
        );
        await store.insertLinksBulk(links);
        assert.equal(await store.countLiveLinks(account.id), count);
        for (const link of [links[0], links[9_999], links[10_000], links[count - 1]]) {
          assert.ok(link);
          const found = await store.findLinkByCode(0, link.code);
          assert.equal(found?.longUrl, link.longUrl);
          assert.equal(found?.title, link.title);
          assert.equal(found?.workspaceId, account.id);
        }
        const last = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/last'));
        assert.equal(last.kind, 'created', 'one slot is left');
        const over = await store.insertLinkWithinQuota(newLink(account.id, 'https://example.com/over'));
        assert.equal(over.kind, 'quota-exceeded', 'link_count was raised by the bulk insert');
      });

      it('raises the count of each account by its own links in a mixed batch', async () => {
        const plan = await store.upsertPlan(planInput({ name: 'three', urlQuota: 3 }));
        const ada = await givenAccount(store, 'ada@example.com', plan);
        const bob = await givenAccount(store, 'bob@example.com', plan);
        await store.insertLinksBulk([
          newLink(ada.id, 'https://example.com/1'),
          newLink(bob.id, 'https://example.com/1'),
          newLink(ada.id, 'https://example.com/2'),
        ]);
        assert.equal(await store.countLiveLinks(ada.id), 2);
        assert.equal(await store.countLiveLinks(bob.id), 1);
        const adaNext = [3, 4].map((i) => newLink(ada.id, `https://example.com/${i}`));
        const bobNext = [3, 4, 5].map((i) => newLink(bob.id, `https://example.com/${i}`));
        const kinds = async (links: NewLink[]) => {
          const results: string[] = [];
          for (const link of links) results.push((await store.insertLinkWithinQuota(link)).kind);
          return results;
        };
        assert.deepEqual(await kinds(adaNext), ['created', 'quota-exceeded']);
        assert.deepEqual(await kinds(bobNext), ['created', 'created', 'quota-exceeded']);
      });

      it('throws on a code repeated within the batch and keeps none of it', async () => {
        const account = await givenQuota(10);
        const first = newLink(account.id, 'https://example.com/a');
        const batch = [first, newLink(account.id, 'https://example.com/b', { code: first.code })];
        await assert.rejects(store.insertLinksBulk(batch));
        assert.equal(await store.findLinkByCode(0, first.code), undefined);
        assert.equal(await store.countLiveLinks(account.id), 0);
        for (let i = 0; i < 10; i++) {
          const result = await store.insertLinkWithinQuota(newLink(account.id, `https://example.com/${i}`));
          assert.equal(result.kind, 'created', 'the quota counter was not raised');
        }
      });

      it('throws on a code an existing link already holds', async () => {
        const account = await givenQuota(10);
        const existing = newLink(account.id, 'https://example.com/a');
        assert.equal((await store.insertLinkWithinQuota(existing)).kind, 'created');
        const clash = newLink(account.id, 'https://example.com/b', { code: existing.code });
        await assert.rejects(store.insertLinksBulk([clash]));
        assert.equal(await store.countLiveLinks(account.id), 1);
      });
    });

    describe('changing links', () => {
      async function givenLink(url = 'https://example.com/a', overrides: Partial<NewLink> = {}) {
        const plan = await store.upsertPlan(planInput());
        const ada = await givenAccount(store, `ada-${nextCode()}@example.com`, plan);
        const result = await store.insertLinkWithinQuota(newLink(ada.id, url, overrides));
        assert.equal(result.kind, 'created');
        return { ada, link: result.link };
      }
      const target = (url: string) => ({
        longUrl: url,
        normalizedUrl: url,
        urlHash: createHash('sha256').update(url).digest('hex'),
      });

      it('knows every code ever issued, deleted ones included', async () => {
        const { ada, link } = await givenLink();
        assert.equal(await store.isCodeIssued(0, link.code), true);
        assert.equal(await store.isCodeIssued(0, link.code.toUpperCase()), false, 'codes are case-sensitive');
        await store.deleteLink(ada.id, 0, link.code);
        assert.equal(await store.isCodeIssued(0, link.code), true);
        assert.equal(await store.isCodeIssued(0, 'never-issued'), false);
      });

      it('changes target, title, group and tags of a live link, and its updated time', async () => {
        const { ada, link } = await givenLink('https://example.com/a', { tags: ['b', 'a'] });
        assert.deepEqual((await store.tagsOf([link.id])).get(link.id), ['a', 'b']);
        const group = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(group.kind, 'created');
        await new Promise((resolve) => setTimeout(resolve, 5));
        const result = await store.updateLink(ada.id, 0, link.code, {
          target: target('https://example.com/b'),
          title: 'B',
          groupId: group.group.id,
          tags: ['news'],
        });
        assert.equal(result.kind, 'updated');
        assert.equal(result.link.code, link.code);
        assert.equal(result.link.longUrl, 'https://example.com/b');
        assert.equal(result.link.title, 'B');
        assert.equal(result.link.groupId, group.group.id);
        assert.ok(result.link.updatedAt.getTime() > link.updatedAt.getTime());
        assert.deepEqual(result.link.createdAt, link.createdAt);
        assert.deepEqual(await store.findLinkByCode(0, link.code), result.link);
        assert.deepEqual((await store.tagsOf([link.id])).get(link.id), ['news']);
        assert.deepEqual(await store.countLinksPerGroup(ada.id), new Map([[group.group.id, 1]]));
        const ungrouped = await store.updateLink(ada.id, 0, link.code, { groupId: null, tags: [] });
        assert.equal(ungrouped.kind, 'updated');
        assert.equal(ungrouped.link.groupId, null);
        assert.equal(ungrouped.link.title, 'B', 'what a change leaves out stays');
        assert.equal((await store.tagsOf([link.id])).has(link.id), false);
        assert.deepEqual(await store.countLinksPerGroup(ada.id), new Map());
      });

      it('finds no link to change for another account, an unknown code or a deleted link', async () => {
        const { ada, link } = await givenLink();
        const bob = await givenAccount(store, 'bob-change@example.com', ada.plan);
        assert.deepEqual(await store.updateLink(bob.id, 0, link.code, { title: 'x' }), { kind: 'not-found' });
        assert.deepEqual(await store.updateLink(ada.id, 0, 'unknown', { title: 'x' }), { kind: 'not-found' });
        await store.deleteLink(ada.id, 0, link.code);
        assert.deepEqual(await store.updateLink(ada.id, 0, link.code, { title: 'x' }), { kind: 'not-found' });
      });

      it('refuses a target another live link of the account has, and changes nothing', async () => {
        const { ada, link } = await givenLink('https://example.com/a', { tags: ['keep'] });
        const other = await store.insertLinkWithinQuota(newLink(ada.id, 'https://example.com/b'));
        assert.equal(other.kind, 'created');
        const result = await store.updateLink(ada.id, 0, link.code, {
          target: target('https://example.com/b'),
          title: 'changed',
          tags: ['changed'],
        });
        assert.deepEqual(result, { kind: 'duplicate', existing: other.link });
        assert.deepEqual(await store.findLinkByCode(0, link.code), link);
        assert.deepEqual((await store.tagsOf([link.id])).get(link.id), ['keep']);
        const own = await store.updateLink(ada.id, 0, link.code, { target: target('https://example.com/a') });
        assert.equal(own.kind, 'updated', 'its own target is no duplicate');
      });

      it('stores link rules and changes them; a limit set later starts from the clicks counted', async () => {
        const rules = [{ if: { device: 'ios' as const }, url: 'https://example.com/ios' }];
        const expiresAt = new Date(Date.UTC(2030, 0, 1));
        const { ada, link } = await givenLink('https://example.com/ruled', {
          guards: { expiresAt, maxClicks: 5, passwordHash: 'scrypt$x', rules },
        });
        assert.deepEqual(
          [link.expiresAt, link.maxClicks, link.limitUsed, link.passwordHash, link.rules],
          [expiresAt, 5, 0, 'scrypt$x', rules],
        );
        const cleared = await store.updateLink(ada.id, 0, link.code, {
          guards: { expiresAt: null, maxClicks: null, passwordHash: null, rules: [] },
        });
        assert.equal(cleared.kind, 'updated');
        assert.deepEqual(
          [cleared.link.expiresAt, cleared.link.maxClicks, cleared.link.passwordHash, cleared.link.rules],
          [null, null, null, []],
        );
        await store.addClicks([{ linkId: link.id, day: '2026-11-23', clicks: 7, botHits: 0 }]);
        const limited = await store.updateLink(ada.id, 0, link.code, { guards: { maxClicks: 9 } });
        assert.equal(limited.kind, 'updated');
        assert.equal(limited.link.limitUsed, 7);
        assert.deepEqual([await store.takeVisit(link.id), await store.takeVisit(link.id)], [true, true]);
        assert.equal(await store.takeVisit(link.id), false);
        assert.equal(await store.visitsTaken(link.id), 9);
      });

      it('takes visits atomically under concurrency and never for a link without a limit', async () => {
        const { link } = await givenLink('https://example.com/race', { guards: { maxClicks: 10 } });
        const taken = await Promise.all(Array.from({ length: 30 }, () => store.takeVisit(link.id)));
        assert.equal(taken.filter(Boolean).length, 10);
        const { link: free } = await givenLink('https://example.com/free');
        assert.equal(await store.takeVisit(free.id), false);
      });

      it('lists links by tag, and counts only live links per group', async () => {
        const { ada, link } = await givenLink('https://example.com/a', { tags: ['x', 'y'] });
        const group = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(group.kind, 'created');
        const second = await store.insertLinkWithinQuota(
          newLink(ada.id, 'https://example.com/b', { tags: ['y'], groupId: group.group.id }),
        );
        const third = await store.insertLinkWithinQuota(
          newLink(ada.id, 'https://example.com/c', { groupId: group.group.id }),
        );
        assert.equal(second.kind, 'created');
        assert.equal(third.kind, 'created');
        const codes = async (tag: string) =>
          (await store.listLinks(ada.id, { limit: 10, tag })).links.map((found) => found.code);
        assert.deepEqual(await codes('x'), [link.code]);
        assert.deepEqual(await codes('y'), [second.link.code, link.code]);
        assert.deepEqual(await codes('Y'), [], 'tags are case-sensitive');
        await store.deleteLink(ada.id, 0, third.link.code);
        assert.deepEqual(await store.countLinksPerGroup(ada.id), new Map([[group.group.id, 1]]));
      });
    });

    describe('listing the links of an account', () => {
      async function givenTwoAccounts(): Promise<[Workspace, Workspace]> {
        const plan = await store.upsertPlan(planInput());
        return [
          await givenAccount(store, 'ada@example.com', plan),
          await givenAccount(store, 'bob@example.com', plan),
        ];
      }

      async function stored(link: NewLink): Promise<Link> {
        const result = await store.insertLinkWithinQuota(link);
        assert.equal(result.kind, 'created');
        return result.link;
      }

      it('lists only live links of the account, newest first (later insert first within one millisecond)', async () => {
        const [ada, bob] = await givenTwoAccounts();
        const links: Link[] = [];
        for (let i = 0; i < 5; i++) links.push(await stored(newLink(ada.id, `https://example.com/${i}`)));
        await stored(newLink(bob.id, 'https://example.com/bob'));
        assert.equal(await store.deleteLink(ada.id, 0, links[2]?.code ?? ''), true);
        const page = await store.listLinks(ada.id, { limit: 10 });
        assert.equal(page.total, 4);
        assert.deepEqual(
          page.links.map((link) => link.code),
          [links[4], links[3], links[1], links[0]].map((link) => link?.code),
        );
        assert.deepEqual(page.links[0], links[4]);
      });

      it('pages by keyset after and before a position, while the total counts every match', async () => {
        const [ada] = await givenTwoAccounts();
        const links: Link[] = [];
        for (let i = 0; i < 7; i++) links.push(await stored(newLink(ada.id, `https://example.com/${i}`)));
        const newestFirst = links.map((link) => link.code).reverse();
        const at = (link: Link | undefined) => ({ value: link?.createdAt.getTime() ?? 0, id: link?.id ?? 0 });
        const first = await store.listLinks(ada.id, { limit: 3 });
        const second = await store.listLinks(ada.id, { limit: 3, after: at(first.links.at(-1)) });
        const third = await store.listLinks(ada.id, { limit: 3, after: at(second.links.at(-1)) });
        const codes = (page: { links: Link[] }) => page.links.map((link) => link.code);
        assert.deepEqual(codes(first), newestFirst.slice(0, 3));
        assert.deepEqual(codes(second), newestFirst.slice(3, 6));
        assert.deepEqual(codes(third), newestFirst.slice(6));
        assert.deepEqual([first.more, second.more, third.more], [true, true, false]);
        assert.deepEqual([first.total, second.total, third.total], [7, 7, 7]);
        // Back up the order from the second page: the first page again, in the same order.
        const back = await store.listLinks(ada.id, { limit: 3, before: at(second.links[0]) });
        assert.deepEqual(codes(back), codes(first));
        assert.equal(back.more, false);
        // A link added and one deleted between pages neither repeats nor hides the rest.
        await stored(newLink(ada.id, 'https://example.com/new'));
        assert.equal(await store.deleteLink(ada.id, 0, newestFirst[4] ?? ''), true);
        const after = await store.listLinks(ada.id, { limit: 10, after: at(first.links.at(-1)) });
        assert.deepEqual(codes(after), [newestFirst[3], newestFirst[5], newestFirst[6]]);
      });

      it('lists the most clicked first, ties newest first, and pages that order by keyset', async () => {
        const [ada] = await givenTwoAccounts();
        const links: Link[] = [];
        for (let i = 0; i < 5; i++) links.push(await stored(newLink(ada.id, `https://example.com/c${i}`)));
        const clicks = [3, 9, 0, 9, 1];
        await store.addClicks(
          links.map((link, i) => ({
            linkId: link.id,
            day: '2026-01-01',
            clicks: clicks[i] ?? 0,
            botHits: 0,
          })),
        );
        const expected = [links[3], links[1], links[0], links[4], links[2]].map((link) => link?.code);
        const first = await store.listLinks(ada.id, { order: 'clicks', limit: 2 });
        const last = first.links.at(-1);
        const rest = await store.listLinks(ada.id, {
          order: 'clicks',
          limit: 5,
          after: { value: last?.clicks ?? 0, id: last?.id ?? 0 },
        });
        assert.deepEqual(
          [...first.links, ...rest.links].map((link) => link.code),
          expected,
        );
        assert.deepEqual(
          first.links.map((link) => link.clicks),
          [9, 9],
        );
        assert.equal(rest.more, false);
      });

      it('searches the long URL and the title as a case-insensitive substring', async () => {
        const [ada, bob] = await givenTwoAccounts();
        const byUrl = await stored(newLink(ada.id, 'https://Example.com/Spring-Sale'));
        const byTitle = await stored(
          newLink(ada.id, 'https://example.com/x', { title: 'The SPRING catalogue' }),
        );
        await stored(newLink(ada.id, 'https://example.com/autumn', { title: 'Autumn' }));
        await stored(newLink(bob.id, 'https://example.com/spring', { title: 'spring' }));
        const page = await store.listLinks(ada.id, { search: 'sPrInG', limit: 10 });
        assert.deepEqual(
          page.links.map((link) => link.code),
          [byTitle.code, byUrl.code],
        );
        assert.equal(page.total, 2);
      });

      it('takes % and _ and \\ in a search literally', async () => {
        const [ada] = await givenTwoAccounts();
        const percent = await stored(newLink(ada.id, 'https://example.com/?off=50%25', { title: '50% off' }));
        const underscore = await stored(newLink(ada.id, 'https://example.com/a_b'));
        const backslash = await stored(newLink(ada.id, 'https://example.com/x', { title: 'C:\\temp' }));
        await stored(newLink(ada.id, 'https://example.com/axb', { title: '50 off' }));
        const codes = async (search: string) =>
          (await store.listLinks(ada.id, { search, limit: 10 })).links.map((link) => link.code);
        assert.deepEqual(await codes('0%'), [percent.code]);
        assert.deepEqual(await codes('a_b'), [underscore.code]);
        assert.deepEqual(await codes(':\\t'), [backslash.code]);
        assert.deepEqual(await codes('%'), [percent.code]);
      });

      it('filters by group, and combines the group with a search', async () => {
        const [ada] = await givenTwoAccounts();
        const news = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(news.kind, 'created');
        const groupId = news.group.id;
        const a = await stored(newLink(ada.id, 'https://example.com/a', { groupId }));
        const b = await stored(newLink(ada.id, 'https://example.com/b', { groupId, title: 'Match' }));
        await stored(newLink(ada.id, 'https://example.com/c', { title: 'Match' }));
        const grouped = await store.listLinks(ada.id, { groupId, limit: 10 });
        assert.deepEqual(
          grouped.links.map((link) => link.code),
          [b.code, a.code],
        );
        assert.equal(grouped.total, 2);
        const both = await store.listLinks(ada.id, { groupId, search: 'match', limit: 10 });
        assert.deepEqual(
          both.links.map((link) => link.code),
          [b.code],
        );
        assert.equal(both.total, 1);
      });

      it("never lists another account's links, even through the other account's group", async () => {
        const [ada, bob] = await givenTwoAccounts();
        const bobs = await store.createGroup(bob.id, 'Bob', 'bob');
        assert.equal(bobs.kind, 'created');
        await stored(newLink(bob.id, 'https://example.com/b', { groupId: bobs.group.id }));
        assert.deepEqual(await store.listLinks(ada.id, { groupId: bobs.group.id, limit: 10 }), {
          links: [],
          total: 0,
          more: false,
        });
        assert.deepEqual(await store.listLinks(ada.id, { limit: 10 }), { links: [], total: 0, more: false });
      });

      it('finds a live link by code only for its owner', async () => {
        const [ada, bob] = await givenTwoAccounts();
        const link = await stored(newLink(ada.id, 'https://example.com/a'));
        assert.deepEqual(await store.findLinkOfWorkspace(ada.id, 0, link.code), link);
        assert.equal(await store.findLinkOfWorkspace(bob.id, 0, link.code), undefined);
        assert.equal(await store.findLinkOfWorkspace(ada.id, 0, 'zzzzzzz'), undefined);
        await store.deleteLink(ada.id, 0, link.code);
        assert.equal(await store.findLinkOfWorkspace(ada.id, 0, link.code), undefined);
      });
    });

    describe('passwords and group changes', () => {
      async function givenTwoAccounts(): Promise<[Workspace, Workspace]> {
        const plan = await store.upsertPlan(planInput());
        return [
          await givenAccount(store, 'ada@example.com', plan),
          await givenAccount(store, 'bob@example.com', plan),
        ];
      }

      it('sets the password hash of one user only', async () => {
        const [ada, bob] = await givenTwoAccounts();
        await store.setPasswordHash(ada.personalOf as number, 'scrypt$new');
        assert.equal((await store.findUserByEmail('ada@example.com'))?.passwordHash, 'scrypt$new');
        assert.equal((await store.findUserById(bob.personalOf as number))?.passwordHash, null);
      });

      it('renames a group and sets its API identifier', async () => {
        const [ada] = await givenTwoAccounts();
        const created = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(created.kind, 'created');
        const { id } = created.group;
        assert.equal(await store.renameGroup(ada.id, id, 'Fresh news', 'fresh'), 'renamed');
        const renamed = await store.findGroupOfWorkspace(ada.id, { id });
        assert.deepEqual(renamed, { ...created.group, name: 'Fresh news', apiId: 'fresh' });
        assert.deepEqual(await store.findGroupOfWorkspace(ada.id, { apiId: 'fresh' }), renamed);
        assert.equal(await store.findGroupOfWorkspace(ada.id, { apiId: 'news' }), undefined);
        assert.equal(await store.renameGroup(ada.id, id, 'Only the name', 'fresh'), 'renamed');
      });

      it('refuses an API identifier another group of the account holds', async () => {
        const [ada, bob] = await givenTwoAccounts();
        const news = await store.createGroup(ada.id, 'News', 'news');
        await store.createGroup(ada.id, 'Blog', 'blog');
        await store.createGroup(bob.id, 'Shop', 'shop');
        assert.equal(news.kind, 'created');
        assert.equal(await store.renameGroup(ada.id, news.group.id, 'News', 'blog'), 'api-id-taken');
        assert.deepEqual(await store.findGroupOfWorkspace(ada.id, { id: news.group.id }), news.group);
        assert.equal(await store.renameGroup(ada.id, news.group.id, 'Shop', 'shop'), 'renamed');
      });

      it("does not rename another account's group", async () => {
        const [ada, bob] = await givenTwoAccounts();
        const news = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(news.kind, 'created');
        assert.equal(await store.renameGroup(bob.id, news.group.id, 'Mine', 'mine'), 'not-found');
        assert.equal(await store.renameGroup(ada.id, news.group.id + 1000, 'Gone', 'gone'), 'not-found');
        assert.deepEqual(await store.findGroupOfWorkspace(ada.id, { id: news.group.id }), news.group);
      });

      it('deletes a group and keeps its links, ungrouped', async () => {
        const [ada] = await givenTwoAccounts();
        const news = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(news.kind, 'created');
        const link = newLink(ada.id, 'https://example.com/a', { groupId: news.group.id });
        assert.equal((await store.insertLinkWithinQuota(link)).kind, 'created');
        assert.equal(await store.deleteGroup(ada.id, news.group.id), true);
        assert.deepEqual(await store.listGroups(ada.id), []);
        assert.equal((await store.findLinkByCode(0, link.code))?.groupId, null);
        assert.equal(await store.countLiveLinks(ada.id), 1);
        assert.equal(await store.deleteGroup(ada.id, news.group.id), false, 'a second delete finds nothing');
        assert.equal((await store.createGroup(ada.id, 'News again', 'news')).kind, 'created');
      });

      it("does not delete another account's group", async () => {
        const [ada, bob] = await givenTwoAccounts();
        const news = await store.createGroup(ada.id, 'News', 'news');
        assert.equal(news.kind, 'created');
        const link = newLink(ada.id, 'https://example.com/a', { groupId: news.group.id });
        await store.insertLinkWithinQuota(link);
        assert.equal(await store.deleteGroup(bob.id, news.group.id), false);
        assert.deepEqual(await store.listGroups(ada.id), [news.group]);
        assert.equal((await store.findLinkByCode(0, link.code))?.groupId, news.group.id);
      });
    });

    describe('sessions', () => {
      const HOUR = 3_600_000;
      const t0 = new Date(Date.UTC(2026, 0, 1, 12));
      const later = (ms: number) => new Date(t0.getTime() + ms);

      async function givenAccounts(): Promise<[Workspace, Workspace]> {
        const plan = await store.upsertPlan(planInput());
        return [
          await givenAccount(store, 'ada@example.com', plan),
          await givenAccount(store, 'bob@example.com', plan),
        ];
      }

      it('finds a session by the hash of its id until it expires', async () => {
        const [ada] = await givenAccounts();
        const record = { userId: ada.personalOf as number, csrfToken: 'csrf-1', expiresAt: later(HOUR) };
        await store.createSession(sha256('s1'), record);
        // What the record was made with, and the families (none here) and last-seen time beside it.
        const made = async (at: Date) => {
          const found = await store.findSession(sha256('s1'), at);
          assert.equal(found?.agent, null);
          assert.ok(found?.lastSeenAt instanceof Date);
          return found && { userId: found.userId, csrfToken: found.csrfToken, expiresAt: found.expiresAt };
        };
        assert.deepEqual(await made(t0), record);
        assert.deepEqual(await made(later(HOUR - 1)), record);
        assert.equal(await store.findSession(sha256('s1'), later(HOUR)), undefined);
        assert.equal(await store.findSession(sha256('s2'), t0), undefined);
      });

      it('deletes one session', async () => {
        const [ada] = await givenAccounts();
        await store.createSession(sha256('s1'), {
          userId: ada.personalOf as number,
          csrfToken: 'a',
          expiresAt: later(HOUR),
        });
        await store.createSession(sha256('s2'), {
          userId: ada.personalOf as number,
          csrfToken: 'b',
          expiresAt: later(HOUR),
        });
        await store.deleteSession(sha256('s1'));
        await store.deleteSession(sha256('unknown'));
        assert.equal(await store.findSession(sha256('s1'), t0), undefined);
        assert.equal((await store.findSession(sha256('s2'), t0))?.csrfToken, 'b');
      });

      it("ends every session of an account but the one kept, and no other account's", async () => {
        const [ada, bob] = await givenAccounts();
        for (const id of ['a1', 'a2', 'a3']) {
          await store.createSession(sha256(id), {
            userId: ada.personalOf as number,
            csrfToken: id,
            expiresAt: later(HOUR),
          });
        }
        await store.createSession(sha256('b1'), {
          userId: bob.personalOf as number,
          csrfToken: 'b1',
          expiresAt: later(HOUR),
        });
        await store.deleteSessionsOfUser(ada.personalOf as number, sha256('a2'));
        assert.equal(await store.findSession(sha256('a1'), t0), undefined);
        assert.equal((await store.findSession(sha256('a2'), t0))?.userId, ada.personalOf);
        assert.equal(await store.findSession(sha256('a3'), t0), undefined);
        assert.equal((await store.findSession(sha256('b1'), t0))?.userId, bob.personalOf);
        await store.deleteSessionsOfUser(ada.personalOf as number);
        assert.equal(await store.findSession(sha256('a2'), t0), undefined);
        assert.equal((await store.findSession(sha256('b1'), t0))?.userId, bob.personalOf);
      });

      it('sweeps expired sessions and says how many', async () => {
        const [ada] = await givenAccounts();
        await store.createSession(sha256('old'), {
          userId: ada.personalOf as number,
          csrfToken: 'o',
          expiresAt: later(HOUR),
        });
        await store.createSession(sha256('new'), {
          userId: ada.personalOf as number,
          csrfToken: 'n',
          expiresAt: later(3 * HOUR),
        });
        assert.equal(await store.deleteExpiredSessions(t0), 0);
        assert.equal(await store.deleteExpiredSessions(later(2 * HOUR)), 1);
        assert.equal(await store.deleteExpiredSessions(later(2 * HOUR)), 0);
        assert.equal((await store.findSession(sha256('new'), later(2 * HOUR)))?.csrfToken, 'n');
      });
    });

    describe('shared secrets', () => {
      it('keeps the first candidate of a name, for every caller after it', async () => {
        const [first, second] = [randomBytes(32), randomBytes(32)];
        const [a, b] = await Promise.all([
          store.secret('form-tokens', first),
          store.secret('form-tokens', second),
        ]);
        assert.deepEqual(a, b);
        assert.ok(a.equals(first) || a.equals(second));
        assert.ok((await store.secret('form-tokens', randomBytes(32))).equals(a));
        assert.ok((await store.secret('another', second)).equals(second));
      });
    });

    describe('lifecycle', () => {
      it('answers a ping', async () => {
        await store.ping();
      });

      it('applies nothing on a second migrate', async () => {
        assert.deepEqual(await store.migrate(), []);
      });
    });

    runStatsContract(() => store);
    runCompatContract(() => store);
  });
}
