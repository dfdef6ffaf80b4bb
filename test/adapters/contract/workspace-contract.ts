/**
 * The workspaces part of the store contract (SPEC §11): team workspaces, members and their roles,
 * the keys members make, invitations and single-use user tokens. Written against the ports only,
 * so the same cases run on SQLite and PostgreSQL. `open` must resolve to a migrated, empty store;
 * `openPair`, when given, to two stores on one database (a second process, as far as the store knows).
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Role } from '../../../src/core/authorization.ts';
import type { Account, Plan, User } from '../../../src/core/entities.ts';
import type { Store } from '../../../src/core/ports/store.ts';
import { MAX_KEYS_PER_ACCOUNT } from '../../../src/core/scopes.ts';
import { planInput } from './store-contract.ts';

const DAY = 86_400_000;

const sha256 = (text: string): Buffer => createHash('sha256').update(text).digest();

async function givenUser(store: Store, email: string, plan: Plan): Promise<Account> {
  const result = await store.createAccount(email, plan.id, null);
  assert.equal(result.kind, 'created');
  return result.account;
}

async function givenTeam(store: Store, slug: string, plan: Plan, owner: User): Promise<number> {
  const result = await store.createWorkspace(slug, slug, plan.id, owner.id);
  assert.equal(result.kind, 'created');
  return result.workspace.id;
}

/** A further key of the workspace made by `maker`, known by the hash of `text`. */
async function givenKey(store: Store, workspaceId: number, maker: number, text: string): Promise<number> {
  const result = await store.addKey(workspaceId, {
    createdBy: maker,
    name: text,
    scopes: ['links:read'],
    prefix: `snip_${text}`.slice(0, 11),
    hash: sha256(text),
  });
  assert.equal(result.kind, 'created', `key ${text}`);
  return result.kind === 'created' ? result.key.id : 0;
}

export interface WorkspaceContractOptions {
  /** Two stores on one fresh database, for races between processes. */
  openPair?: () => Promise<[Store, Store]>;
}

export function runWorkspaceContract(
  name: string,
  open: () => Promise<Store>,
  options: WorkspaceContractOptions = {},
): void {
  describe(`${name} workspace contract`, () => {
    let store: Store;
    let plan: Plan;
    beforeEach(async () => {
      store = await open();
      plan = await store.upsertPlan(planInput());
    });
    afterEach(async () => {
      await store.close();
    });

    const people = async (...emails: string[]) => {
      const users: User[] = [];
      for (const email of emails) users.push((await givenUser(store, email, plan)).user);
      return users;
    };
    const roles = async (workspaceId: number) =>
      (await store.listMembers(workspaceId)).map((member) => [member.email, member.role]);

    describe('workspaces and members', () => {
      it('creates a team workspace with its owner, and refuses a slug already taken', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const before = Date.now();
        const result = await store.createWorkspace('acme', 'Acme Inc', plan.id, ada.id);
        assert.equal(result.kind, 'created');
        if (result.kind !== 'created') return;
        const { workspace } = result;
        assert.equal(workspace.slug, 'acme');
        assert.equal(workspace.name, 'Acme Inc');
        assert.deepEqual(workspace.plan, plan);
        assert.equal(workspace.personalOf, null);
        assert.equal(workspace.defaultDomain, null);
        assert.ok(workspace.createdAt.getTime() >= before - 1000);
        assert.equal(await store.roleOf(workspace.id, ada.id), 'owner');
        assert.equal(await store.roleOf(workspace.id, bob.id), undefined);
        assert.deepEqual(await roles(workspace.id), [['ada@example.com', 'owner']]);
        assert.deepEqual(await store.findWorkspaceBySlug('acme'), workspace);
        assert.deepEqual(await store.createWorkspace('acme', 'Other', plan.id, bob.id), {
          kind: 'slug-taken',
        });
        assert.equal((await store.workspacesOf(bob.id)).length, 1, 'bob got nothing');
      });

      it('keeps a time zone per workspace, UTC until one is set, read back everywhere', async () => {
        const [ada] = await people('ada@example.com');
        assert.ok(ada);
        const team = await givenTeam(store, 'acme', plan, ada);
        const personal = (await store.workspacesOf(ada.id)).find((m) => m.workspace.id !== team);
        assert.equal((await store.findWorkspaceById(team))?.timezone, 'UTC');
        await store.setWorkspaceTimezone(team, 'Europe/Paris');
        assert.equal((await store.findWorkspaceById(team))?.timezone, 'Europe/Paris');
        assert.equal((await store.findWorkspaceBySlug('acme'))?.timezone, 'Europe/Paris');
        const ofAda = await store.workspacesOf(ada.id);
        assert.equal(ofAda.find((m) => m.workspace.id === team)?.workspace.timezone, 'Europe/Paris');
        assert.equal(personal?.workspace.timezone, 'UTC', 'the other workspace keeps its zone');
        const account = await store.findAccountByEmail('ada@example.com');
        assert.equal(account?.workspace.timezone, 'UTC');
      });

      it('lists the workspaces of a user, personal first, then by name, each with the role', async () => {
        const [zed, ada] = await people('zed@example.com', 'ada@example.com');
        assert.ok(zed && ada);
        const beta = await givenTeam(store, 'beta', plan, zed);
        const alpha = await givenTeam(store, 'alpha', plan, ada);
        assert.equal(await store.addMember(alpha, zed.id, 'viewer'), true);
        const listed = await store.workspacesOf(zed.id);
        assert.deepEqual(
          listed.map(({ workspace, role }) => [workspace.slug, role]),
          [
            [(await store.findAccountByEmail('zed@example.com'))?.workspace.slug, 'owner'],
            ['alpha', 'viewer'],
            ['beta', 'owner'],
          ],
        );
        assert.equal(listed[2]?.workspace.id, beta);
      });

      it('lists members owners first, then by role and email, with when each joined', async () => {
        const [zoe, amy, bob, abe, carl] = await people(
          'zoe@example.com',
          'amy@example.com',
          'bob@example.com',
          'abe@example.com',
          'carl@example.com',
        );
        assert.ok(zoe && amy && bob && abe && carl);
        const team = await givenTeam(store, 'team', plan, zoe);
        const before = Date.now();
        for (const [user, role] of [
          [abe, 'viewer'],
          [bob, 'member'],
          [amy, 'admin'],
          [carl, 'owner'],
        ] as const) {
          assert.equal(await store.addMember(team, user.id, role), true);
        }
        const members = await store.listMembers(team);
        assert.deepEqual(
          members.map((member) => [member.email, member.role]),
          [
            ['carl@example.com', 'owner'],
            ['zoe@example.com', 'owner'],
            ['amy@example.com', 'admin'],
            ['bob@example.com', 'member'],
            ['abe@example.com', 'viewer'],
          ],
        );
        assert.equal(members.find((member) => member.email === 'abe@example.com')?.userId, abe.id);
        assert.ok(members.every((member) => member.joinedAt.getTime() >= before - 1000));
      });

      it('adds a member once: a second add answers false and keeps the role', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        assert.equal(await store.addMember(team, bob.id, 'member'), true);
        assert.equal(await store.addMember(team, bob.id, 'admin'), false);
        assert.equal(await store.roleOf(team, bob.id), 'member');
      });

      it('changes a role, finds no one outside, and never demotes the only owner', async () => {
        const [ada, bob, cat] = await people('ada@example.com', 'bob@example.com', 'cat@example.com');
        assert.ok(ada && bob && cat);
        const team = await givenTeam(store, 'team', plan, ada);
        await store.addMember(team, bob.id, 'member');
        assert.equal(await store.changeRole(team, bob.id, 'admin'), 'done');
        assert.equal(await store.roleOf(team, bob.id), 'admin');
        assert.equal(await store.changeRole(team, cat.id, 'admin'), 'not-found');
        assert.equal(await store.roleOf(team, cat.id), undefined);
        assert.equal(await store.changeRole(team, ada.id, 'admin'), 'last-owner');
        assert.equal(await store.roleOf(team, ada.id), 'owner');
        assert.equal(await store.changeRole(team, bob.id, 'owner'), 'done');
        assert.equal(await store.changeRole(team, ada.id, 'viewer'), 'done', 'another owner remains');
        assert.deepEqual(await roles(team), [
          ['bob@example.com', 'owner'],
          ['ada@example.com', 'viewer'],
        ]);
        assert.equal(await store.changeRole(team, bob.id, 'member'), 'last-owner');
      });

      it('reports the current role of a key maker, and the operator as an owner', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        await store.addMember(team, bob.id, 'admin');
        const keyId = await givenKey(store, team, bob.id, 'bob-key');
        const made = await store.findKeyByHash(sha256('bob-key'));
        assert.deepEqual(
          [made?.keyId, made?.userId, made?.role, made?.revoked],
          [keyId, bob.id, 'admin', false],
        );
        await store.changeRole(team, bob.id, 'viewer');
        assert.equal((await store.findKeyByHash(sha256('bob-key')))?.role, 'viewer');
        await store.replaceMainKey(team, 'snip_op', sha256('operator-key'), null);
        const operator = await store.findKeyByHash(sha256('operator-key'));
        assert.deepEqual([operator?.userId, operator?.role], [null, 'owner']);
      });
    });

    describe('removing members', () => {
      it('never removes the only owner, and finds no one outside', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        assert.equal(await store.removeMember(team, ada.id), 'last-owner');
        assert.equal(await store.removeMember(team, bob.id), 'not-found');
        assert.deepEqual(await roles(team), [['ada@example.com', 'owner']]);
        await store.addMember(team, bob.id, 'owner');
        assert.equal(await store.removeMember(team, ada.id), 'done', 'another owner remains');
        assert.deepEqual(await roles(team), [['bob@example.com', 'owner']]);
      });

      it('revokes exactly the keys the member made there and frees their places', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const personal = (await store.findAccountByEmail('bob@example.com'))?.workspace.id as number;
        const team = await givenTeam(store, 'team', plan, ada);
        await store.addMember(team, bob.id, 'admin');
        await givenKey(store, team, bob.id, 'bob-team-1');
        await givenKey(store, team, bob.id, 'bob-team-2');
        await givenKey(store, personal, bob.id, 'bob-own');
        await store.replaceMainKey(team, 'snip_main', sha256('team-main'), ada.id);
        for (let n = 4; n <= MAX_KEYS_PER_ACCOUNT; n++) await givenKey(store, team, ada.id, `ada-${n}`);
        const extra = () =>
          store.addKey(team, {
            createdBy: ada.id,
            name: 'extra',
            scopes: ['links:read'],
            prefix: 'snip_extra',
            hash: randomBytes(32),
          });
        assert.deepEqual(await extra(), { kind: 'too-many' });
        await store.setLastWorkspace(bob.id, team);

        assert.equal(await store.removeMember(team, bob.id), 'done');
        assert.equal(await store.roleOf(team, bob.id), undefined);
        for (const text of ['bob-team-1', 'bob-team-2']) {
          assert.equal((await store.findKeyByHash(sha256(text)))?.revoked, true, text);
        }
        for (const text of ['bob-own', 'team-main', 'ada-4', `ada-${MAX_KEYS_PER_ACCOUNT}`]) {
          assert.equal((await store.findKeyByHash(sha256(text)))?.revoked, false, text);
        }
        assert.equal((await store.listLiveKeys(team)).length, MAX_KEYS_PER_ACCOUNT - 2);
        assert.equal((await extra()).kind, 'created');
        assert.equal((await extra()).kind, 'created');
        assert.equal((await store.listLiveKeys(team)).length, MAX_KEYS_PER_ACCOUNT);
        assert.deepEqual(await extra(), { kind: 'too-many' }, 'two places freed, no more');
        assert.equal((await store.findUserById(bob.id))?.lastWorkspaceId, null);
      });

      it('keeps the last workspace of a removed member when it was another one', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        await store.addMember(team, bob.id, 'member');
        const before = (await store.findUserById(bob.id))?.lastWorkspaceId;
        assert.notEqual(before, team);
        assert.equal(await store.removeMember(team, bob.id), 'done');
        assert.equal((await store.findUserById(bob.id))?.lastWorkspaceId, before);
      });
    });

    describe('two owners demoting each other at once', () => {
      /** Rounds of two owners each demoting themselves, one through `a`, the other through `b`. */
      async function race(a: Store, b: Store) {
        const on = await a.upsertPlan(planInput());
        const ada = (await givenUser(a, 'ada@example.com', on)).user;
        const bob = (await givenUser(a, 'bob@example.com', on)).user;
        for (let round = 0; round < 5; round++) {
          const team = await givenTeam(a, `team-${round}`, on, ada);
          await a.addMember(team, bob.id, 'owner');
          const answers = await Promise.all([
            a.changeRole(team, ada.id, 'admin'),
            b.changeRole(team, bob.id, 'admin'),
          ]);
          assert.deepEqual(answers.toSorted(), ['done', 'last-owner'], `round ${round}`);
          const owners = (await b.listMembers(team)).filter((member) => member.role === 'owner');
          assert.equal(owners.length, 1, `round ${round}`);
        }
      }

      it('leaves exactly one owner', async () => {
        await race(store, store);
      });

      it('leaves exactly one owner when two store instances race', {
        skip: options.openPair ? false : 'no second instance on this adapter',
      }, async () => {
        const pair = await options.openPair?.();
        assert.ok(pair);
        try {
          await race(...pair);
        } finally {
          await Promise.all(pair.map((one) => one.close()));
        }
      });
    });

    describe('invitations', () => {
      const invite = (workspaceId: number, email: string, role: Role, token: string, expiresInMs = 7 * DAY) =>
        store.createInvitation({
          workspaceId,
          email,
          role,
          tokenHash: sha256(token),
          invitedBy: null,
          expiresAt: new Date(Date.now() + expiresInMs),
        });

      it('makes an invitation, revoking a pending one for the same email in that workspace', async () => {
        const [ada] = await people('ada@example.com');
        assert.ok(ada);
        const team = await givenTeam(store, 'team', plan, ada);
        const other = await givenTeam(store, 'other', plan, ada);
        const first = await invite(team, 'bob@example.com', 'member', 't1');
        const elsewhere = await invite(other, 'bob@example.com', 'member', 't-other');
        const second = await store.createInvitation({
          workspaceId: team,
          email: 'Bob@Example.com',
          role: 'admin',
          tokenHash: sha256('t2'),
          invitedBy: ada.id,
          expiresAt: new Date(Date.now() + DAY),
        });
        assert.equal(second.email, 'bob@example.com');
        assert.equal(second.role, 'admin');
        assert.equal(second.invitedBy, ada.id);
        assert.equal(second.workspaceId, team);
        assert.deepEqual([second.acceptedAt, second.revokedAt], [null, null]);
        assert.notEqual((await store.findInvitationByHash(sha256('t1')))?.revokedAt, null);
        assert.equal((await store.findInvitationByHash(sha256('t-other')))?.revokedAt, null);
        assert.deepEqual(await store.findInvitationByHash(sha256('t2')), second);
        assert.deepEqual(
          (await store.listInvitations(team, new Date())).map((found) => found.id),
          [second.id],
        );
        assert.notEqual(first.id, second.id);
        assert.deepEqual(
          (await store.listInvitations(other, new Date())).map((found) => found.id),
          [elsewhere.id],
        );
      });

      it('lists only pending, unexpired invitations of the workspace, newest first', async () => {
        const [ada, cat] = await people('ada@example.com', 'cat@example.com');
        assert.ok(ada && cat);
        const team = await givenTeam(store, 'team', plan, ada);
        const other = await givenTeam(store, 'other', plan, ada);
        const a = await invite(team, 'a@example.com', 'member', 'ta');
        await invite(team, 'b@example.com', 'member', 'tb', -1000);
        const c = await invite(team, 'c@example.com', 'viewer', 'tc');
        const d = await invite(team, 'd@example.com', 'member', 'td');
        await invite(team, 'cat@example.com', 'member', 'tcat');
        await invite(other, 'e@example.com', 'member', 'te');
        assert.equal(await store.revokeInvitation(team, d.id), true);
        assert.equal(await store.revokeInvitation(team, d.id), false, 'already revoked');
        assert.equal(await store.revokeInvitation(other, c.id), false, 'not of that workspace');
        assert.equal((await store.acceptInvitation(sha256('tcat'), cat, new Date())).kind, 'accepted');
        assert.deepEqual(
          (await store.listInvitations(team, new Date())).map((found) => found.email),
          [c.email, a.email],
        );
        assert.deepEqual(await store.listInvitations(team, new Date(Date.now() + 8 * DAY)), []);
      });

      it('accepts an invitation once, making the user a member with its role', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        await invite(team, 'bob@example.com', 'admin', 'tok');
        const now = new Date();
        assert.deepEqual(await store.acceptInvitation(sha256('tok'), bob, now), {
          kind: 'accepted',
          workspaceId: team,
          role: 'admin',
        });
        assert.equal(await store.roleOf(team, bob.id), 'admin');
        assert.equal((await store.findInvitationByHash(sha256('tok')))?.acceptedAt?.getTime(), now.getTime());
        assert.deepEqual(await store.acceptInvitation(sha256('tok'), bob, new Date()), { kind: 'gone' });
        assert.deepEqual(await store.acceptInvitation(sha256('unknown'), bob, new Date()), { kind: 'gone' });
      });

      it('refuses an expired or revoked invitation as gone', async () => {
        const [ada, bob] = await people('ada@example.com', 'bob@example.com');
        assert.ok(ada && bob);
        const team = await givenTeam(store, 'team', plan, ada);
        const expiring = await invite(team, 'bob@example.com', 'member', 'expiring', DAY);
        assert.deepEqual(await store.acceptInvitation(sha256('expiring'), bob, expiring.expiresAt), {
          kind: 'gone',
        });
        const revoked = await invite(team, 'bob@example.com', 'member', 'revoked');
        await store.revokeInvitation(team, revoked.id);
        assert.deepEqual(await store.acceptInvitation(sha256('revoked'), bob, new Date()), { kind: 'gone' });
        assert.equal(await store.roleOf(team, bob.id), undefined);
      });

      it('refuses another email, granting nothing and leaving the invitation pending', async () => {
        const [ada, bob, eve] = await people('ada@example.com', 'bob@example.com', 'eve@example.com');
        assert.ok(ada && bob && eve);
        const team = await givenTeam(store, 'team', plan, ada);
        await invite(team, 'bob@example.com', 'member', 'tok');
        assert.deepEqual(await store.acceptInvitation(sha256('tok'), eve, new Date()), {
          kind: 'wrong-email',
        });
        assert.equal(await store.roleOf(team, eve.id), undefined);
        assert.equal((await store.findInvitationByHash(sha256('tok')))?.acceptedAt, null);
        assert.equal((await store.acceptInvitation(sha256('tok'), bob, new Date())).kind, 'accepted');
      });

      it('keeps the higher role of someone already a member', async () => {
        const [ada, bob, cat] = await people('ada@example.com', 'bob@example.com', 'cat@example.com');
        assert.ok(ada && bob && cat);
        const team = await givenTeam(store, 'team', plan, ada);
        await store.addMember(team, bob.id, 'admin');
        await store.addMember(team, cat.id, 'viewer');
        await invite(team, 'bob@example.com', 'viewer', 'down');
        await invite(team, 'cat@example.com', 'admin', 'up');
        assert.deepEqual(await store.acceptInvitation(sha256('down'), bob, new Date()), {
          kind: 'accepted',
          workspaceId: team,
          role: 'admin',
        });
        assert.deepEqual(await store.acceptInvitation(sha256('up'), cat, new Date()), {
          kind: 'accepted',
          workspaceId: team,
          role: 'admin',
        });
        assert.deepEqual(await roles(team), [
          ['ada@example.com', 'owner'],
          ['bob@example.com', 'admin'],
          ['cat@example.com', 'admin'],
        ]);
      });
    });

    describe('user tokens', () => {
      it('answers the user of a token once, then never again', async () => {
        const [ada] = await people('ada@example.com');
        assert.ok(ada);
        const now = new Date();
        await store.createUserToken(sha256('reset-1'), ada.id, 'reset', new Date(now.getTime() + 3_600_000));
        assert.equal(await store.takeUserToken(sha256('reset-1'), 'reset', now), ada.id);
        assert.equal(await store.takeUserToken(sha256('reset-1'), 'reset', now), undefined);
        assert.equal(await store.takeUserToken(sha256('unknown'), 'reset', now), undefined);
      });

      it('answers nothing for an expired token or one of the other purpose', async () => {
        const [ada] = await people('ada@example.com');
        assert.ok(ada);
        const now = new Date();
        const expiresAt = new Date(now.getTime() + 3_600_000);
        await store.createUserToken(sha256('old'), ada.id, 'reset', expiresAt);
        assert.equal(await store.takeUserToken(sha256('old'), 'reset', expiresAt), undefined);
        await store.createUserToken(sha256('verify-1'), ada.id, 'verify', expiresAt);
        assert.equal(await store.takeUserToken(sha256('verify-1'), 'reset', now), undefined);
        assert.equal(await store.takeUserToken(sha256('verify-1'), 'verify', now), ada.id, 'still unused');
      });
    });
  });
}
