import type { Group, Workspace } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import { groupFields } from './group-fields.ts';

/** Groups of one account, for the dashboard, the API and `snip group create` alike (ADR 005). */

const taken = () => new Refusal('api-id-taken', 'another group of this account has that API identifier');

export function workspaceGroups(
  store: Pick<GroupStore, 'createGroup' | 'renameGroup' | 'deleteGroup' | 'findGroupOfWorkspace'>,
) {
  const notFound = () => new Refusal('not-found', 'no group of this account has that ID');
  return {
    async create(account: Pick<Workspace, 'id'>, name: string, apiId?: string): Promise<Group> {
      const fields = groupFields(name, apiId);
      const result = await store.createGroup(account.id, fields.name, fields.apiId);
      if (result.kind === 'api-id-taken') throw taken();
      return result.group;
    },

    async rename(account: Workspace, groupId: number, name: string, apiId: string): Promise<void> {
      const fields = groupFields(name, apiId);
      const result = await store.renameGroup(account.id, groupId, fields.name, fields.apiId);
      if (result === 'api-id-taken') throw taken();
      if (result === 'not-found') throw notFound();
    },

    /** Changes what is given of a group's name and API identifier; the group as it is now. */
    async update(
      account: Pick<Workspace, 'id'>,
      groupId: number,
      change: { name?: string; apiId?: string },
    ): Promise<Group> {
      const group = await store.findGroupOfWorkspace(account.id, { id: groupId });
      if (!group) throw notFound();
      const fields = groupFields(change.name ?? group.name, change.apiId ?? group.apiId);
      const result = await store.renameGroup(account.id, groupId, fields.name, fields.apiId);
      if (result === 'api-id-taken') throw taken();
      if (result === 'not-found') throw notFound();
      return { ...group, ...fields };
    },

    /** Its links stay, ungrouped. */
    async delete(account: Pick<Workspace, 'id'>, groupId: number): Promise<void> {
      if (!(await store.deleteGroup(account.id, groupId))) throw notFound();
    },
  };
}

export type WorkspaceGroups = ReturnType<typeof workspaceGroups>;
