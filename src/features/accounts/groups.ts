import type { Account, Group } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import { isApiId, slugify } from '../../core/slug.ts';

/** Groups of one account, for the dashboard and `snip group create` alike (ADR 005). */

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

export function accountGroups(store: Pick<GroupStore, 'createGroup' | 'renameGroup' | 'deleteGroup'>) {
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
      if (result === 'not-found') throw new Refusal('not-found', 'no group of this account has that ID');
    },

    /** Its links stay, ungrouped. */
    async delete(account: Account, groupId: number): Promise<void> {
      if (!(await store.deleteGroup(account.id, groupId))) {
        throw new Refusal('not-found', 'no group of this account has that ID');
      }
    },
  };
}

export type AccountGroups = ReturnType<typeof accountGroups>;
