/**
 * The role × action table (SPEC §11, core/authorization.ts): every role against every action, the
 * expected grid written out here rather than derived from the code under test.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Action,
  may,
  mayAssign,
  mayRemove,
  ROLES,
  type Role,
  scopesOfRole,
  scopesWithinRole,
} from '../../src/core/authorization.ts';
import { SCOPES, type Scope } from '../../src/core/scopes.ts';

/** Columns: owner, admin, member, viewer. Typed by Action, so a new action cannot be left out. */
const GRID: Record<Action, [boolean, boolean, boolean, boolean]> = {
  'links:create': [true, true, true, false],
  'links:read': [true, true, true, true],
  'links:write': [true, true, true, false],
  'stats:read': [true, true, true, true],
  'groups:write': [true, true, true, false],
  'members:read': [true, true, false, false],
  'members:write': [true, true, false, false],
  'domains:write': [true, true, false, false],
  'webhooks:write': [true, true, false, false],
  'audit:read': [true, true, false, false],
  'conversions:write': [true, true, true, false],
  'keys:write': [true, true, false, false],
  'settings:write': [true, true, false, false],
  'owners:manage': [true, false, false, false],
  'workspace:delete': [true, false, false, false],
  'plan:change': [true, false, false, false],
};
const ACTIONS = Object.keys(GRID) as Action[];

describe('the role × action table', () => {
  it('lists the roles highest first', () => {
    assert.deepEqual(ROLES, ['owner', 'admin', 'member', 'viewer']);
  });

  it('grants each role exactly the actions of its column', () => {
    const actual = Object.fromEntries(
      ACTIONS.map((action) => [action, ROLES.map((role) => may(role, action))]),
    );
    assert.deepEqual(actual, GRID);
  });

  it('gives a key made by each role exactly the scopes the role may use', () => {
    const expected: Record<Role, Scope[]> = {
      owner: [...SCOPES],
      admin: [...SCOPES],
      member: [
        'links:create',
        'links:read',
        'links:write',
        'stats:read',
        'groups:write',
        'conversions:write',
      ],
      viewer: ['links:read', 'stats:read'],
    };
    for (const role of ROLES) assert.deepEqual(scopesOfRole(role), expected[role], role);
  });

  it('keeps scopes within the role of the maker', () => {
    assert.equal(scopesWithinRole('owner', SCOPES), true);
    assert.equal(scopesWithinRole('admin', SCOPES), true);
    assert.equal(scopesWithinRole('member', ['links:create', 'groups:write']), true);
    assert.equal(scopesWithinRole('member', ['links:read', 'members:read']), false);
    assert.equal(scopesWithinRole('viewer', ['links:read', 'stats:read']), true);
    assert.equal(scopesWithinRole('viewer', ['links:create']), false);
    for (const role of ROLES) assert.equal(scopesWithinRole(role, []), true, `${role}: no scope at all`);
  });
});

describe('who may give whom which role', () => {
  it('lets an owner give any role, to anyone, owners included', () => {
    for (const next of ROLES) {
      assert.equal(mayAssign('owner', next), true, `invite as ${next}`);
      for (const current of ROLES)
        assert.equal(mayAssign('owner', next, current), true, `${current} → ${next}`);
    }
  });

  it('lets an admin give admin, member and viewer, but never make or change an owner', () => {
    for (const next of ['admin', 'member', 'viewer'] as const) {
      assert.equal(mayAssign('admin', next), true, `invite as ${next}`);
      for (const current of ['admin', 'member', 'viewer'] as const) {
        assert.equal(mayAssign('admin', next, current), true, `${current} → ${next}`);
      }
      assert.equal(mayAssign('admin', next, 'owner'), false, `owner → ${next}`);
    }
    assert.equal(mayAssign('admin', 'owner'), false, 'invite as owner');
    assert.equal(mayAssign('admin', 'owner', 'admin'), false, 'admin → owner');
    assert.equal(mayAssign('admin', 'owner', 'owner'), false, 'owner → owner');
  });

  it('lets no member or viewer give any role', () => {
    for (const actor of ['member', 'viewer'] as const) {
      for (const next of ROLES) {
        assert.equal(mayAssign(actor, next), false, `${actor} invites as ${next}`);
        for (const current of ROLES) {
          assert.equal(mayAssign(actor, next, current), false, `${actor}: ${current} → ${next}`);
        }
      }
    }
  });

  it('lets an owner remove anyone, an admin anyone but an owner, and no one else remove anyone', () => {
    const expected: Record<Role, [boolean, boolean, boolean, boolean]> = {
      owner: [true, true, true, true],
      admin: [false, true, true, true],
      member: [false, false, false, false],
      viewer: [false, false, false, false],
    };
    const actual = Object.fromEntries(
      ROLES.map((actor) => [actor, ROLES.map((target) => mayRemove(actor, target))]),
    );
    assert.deepEqual(actual, expected);
  });
});
