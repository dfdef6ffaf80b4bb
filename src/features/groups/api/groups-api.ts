import type { Actor, Group } from '../../../core/entities.ts';
import type { GroupStore, LinkStore } from '../../../core/ports/store.ts';
import type { WorkspaceGroups } from '../workspace-groups.ts';
import type { GroupResource } from './group-schemas.ts';

/** The groups of the management API (docs/api.md §7.3), as resources; the routes only carry them. */

export function groupResource(group: Group, links: number): GroupResource {
  return { id: group.id, api_id: group.apiId, name: group.name, links };
}

export interface GroupsApiDeps {
  store: Pick<GroupStore & LinkStore, 'listGroups' | 'countLinksPerGroup'>;
  groups: WorkspaceGroups;
}

export function groupsApi({ store, groups }: GroupsApiDeps) {
  return {
    async list(actor: Actor) {
      const [all, counts] = await Promise.all([
        store.listGroups(actor.workspaceId),
        store.countLinksPerGroup(actor.workspaceId),
      ]);
      return {
        items: all.reverse().map((group) => groupResource(group, counts.get(group.id) ?? 0)),
        next_cursor: null,
      };
    },

    async create(actor: Actor, name: string, apiId: string | undefined): Promise<GroupResource> {
      return groupResource(await groups.create({ id: actor.workspaceId }, name, apiId), 0);
    },

    async patch(actor: Actor, id: number, change: { name?: string; apiId?: string }): Promise<GroupResource> {
      const group = await groups.update({ id: actor.workspaceId }, id, change);
      const counts = await store.countLinksPerGroup(actor.workspaceId);
      return groupResource(group, counts.get(group.id) ?? 0);
    },

    async remove(actor: Actor, id: number): Promise<void> {
      await groups.delete({ id: actor.workspaceId }, id);
    },
  };
}

export type GroupsApi = ReturnType<typeof groupsApi>;
