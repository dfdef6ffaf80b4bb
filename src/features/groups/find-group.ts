import type { Group } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { GroupStore } from '../../core/ports/store.ts';

/**
 * A group named by its numeric ID or its API identifier (312 when the account has none such).
 * With `byName` (a bulk row, docs/api.md §16), a ref that is neither is also a group's name, in any
 * case: an ID or an identifier wins over a name that reads the same.
 */
export async function groupOrRefuse(
  store: Pick<GroupStore, 'findGroupOfWorkspace'>,
  workspaceId: number,
  ref: string,
  byName?: Pick<GroupStore, 'listGroups'>,
): Promise<Group> {
  const wanted = ref.trim();
  const group = /^\d{1,15}$/.test(wanted)
    ? await store.findGroupOfWorkspace(workspaceId, { id: Number(wanted) })
    : await store.findGroupOfWorkspace(workspaceId, { apiId: wanted.toLowerCase() });
  if (group) return group;
  if (!byName) throw new Refusal('312');
  const name = wanted.toLowerCase();
  const named = (await byName.listGroups(workspaceId)).find((one) => one.name.toLowerCase() === name);
  if (named) return named;
  throw new Refusal('312', `No group of this workspace has the ID, API identifier or name “${wanted}”.`);
}
