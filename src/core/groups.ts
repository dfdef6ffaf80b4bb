import type { Account, Group } from './entities.ts';
import { Refusal } from './errors.ts';
import type { GroupStore } from './ports/store.ts';
import { isApiId, slugify } from './slug.ts';

/** Groups of one account, for the dashboard, the API and `snip group create` alike (ADR 005). */

const NAME_RULE = 'a group name has 1-100 characters';
const API_ID_RULE =
  'an API identifier is a lower-case slug (a-z, 0-9, "-"), at most 64 characters, not all digits';

/**
 * A group's name and API identifier as stored: the name trimmed, the identifier lower-cased, or
 * derived from the name when none is given.
 */
export function groupFields(name: string, apiId?: string): { name: string; apiId: string } {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) throw new Refusal('group-name-invalid', NAME_RULE);
  const given = apiId?.trim().toLowerCase();
  const id = given === undefined || given === '' ? slugify(trimmed) : given;
  if (!isApiId(id)) throw new Refusal('group-api-id-invalid', API_ID_RULE);
  return { name: trimmed, apiId: id };
}

const taken = () => new Refusal('api-id-taken', 'another group of this account has that API identifier');

export function accountGroups(
  store: Pick<GroupStore, 'createGroup' | 'renameGroup' | 'deleteGroup' | 'findGroupOfAccount'>,
) {
  const notFound = () => new Refusal('not-found', 'no group of this account has that ID');
  return {
    async create(account: Pick<Account, 'id'>, name: string, apiId?: string): Promise<Group> {
      const fields = groupFields(name, apiId);
      const result = await store.createGroup(account.id, fields.name, fields.apiId);
      if (result.kind === 'api-id-taken') throw taken();
      return result.group;
    },

    async rename(account: Account, groupId: number, name: string, apiId: string): Promise<void> {
      const fields = groupFields(name, apiId);
      const result = await store.renameGroup(account.id, groupId, fields.name, fields.apiId);
      if (result === 'api-id-taken') throw taken();
      if (result === 'not-found') throw notFound();
    },

    /** Changes what is given of a group's name and API identifier; the group as it is now. */
    async update(
      account: Pick<Account, 'id'>,
      groupId: number,
      change: { name?: string; apiId?: string },
    ): Promise<Group> {
      const group = await store.findGroupOfAccount(account.id, { id: groupId });
      if (!group) throw notFound();
      const fields = groupFields(change.name ?? group.name, change.apiId ?? group.apiId);
      const result = await store.renameGroup(account.id, groupId, fields.name, fields.apiId);
      if (result === 'api-id-taken') throw taken();
      if (result === 'not-found') throw notFound();
      return { ...group, ...fields };
    },

    /** Its links stay, ungrouped. */
    async delete(account: Pick<Account, 'id'>, groupId: number): Promise<void> {
      if (!(await store.deleteGroup(account.id, groupId))) throw notFound();
    },
  };
}

export type AccountGroups = ReturnType<typeof accountGroups>;
