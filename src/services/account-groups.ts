import type { Account, Group, Store } from '../store/ports.ts';
import { GROUP_FIELD_RULES, groupFields } from './manage-accounts.ts';

/** Groups from the dashboard: the same rules as `snip group create` (ADR 005), scoped to one account. */

export type GroupChange =
  | { kind: 'done'; group?: Group }
  | { kind: 'invalid'; field: keyof typeof GROUP_FIELD_RULES; rule: string }
  | { kind: 'api-id-taken' }
  | { kind: 'not-found' };

export function accountGroups(store: Pick<Store, 'createGroup' | 'renameGroup' | 'deleteGroup'>) {
  return {
    async create(account: Account, name: string, apiId: string): Promise<GroupChange> {
      const fields = groupFields(name, apiId);
      if ('invalid' in fields)
        return { kind: 'invalid', field: fields.invalid, rule: GROUP_FIELD_RULES[fields.invalid] };
      const result = await store.createGroup(account.id, fields.name, fields.apiId);
      return result.kind === 'created' ? { kind: 'done', group: result.group } : result;
    },

    async rename(account: Account, groupId: number, name: string, apiId: string): Promise<GroupChange> {
      const fields = groupFields(name, apiId);
      if ('invalid' in fields)
        return { kind: 'invalid', field: fields.invalid, rule: GROUP_FIELD_RULES[fields.invalid] };
      const result = await store.renameGroup(account.id, groupId, fields.name, fields.apiId);
      return result === 'renamed' ? { kind: 'done' } : { kind: result };
    },

    /** Its links stay, ungrouped. */
    async delete(account: Account, groupId: number): Promise<GroupChange> {
      return (await store.deleteGroup(account.id, groupId)) ? { kind: 'done' } : { kind: 'not-found' };
    },
  };
}

export type AccountGroups = ReturnType<typeof accountGroups>;
