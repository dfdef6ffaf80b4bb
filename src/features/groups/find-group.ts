import type { Group } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { GroupStore } from '../../core/ports/store.ts';

/** A group named by its numeric ID or its API identifier (312 when the account has none such). */
export async function groupOrRefuse(
  store: Pick<GroupStore, 'findGroupOfWorkspace'>,
  workspaceId: number,
  ref: string,
): Promise<Group> {
  const wanted = ref.trim();
  const group = /^\d{1,15}$/.test(wanted)
    ? await store.findGroupOfWorkspace(workspaceId, { id: Number(wanted) })
    : await store.findGroupOfWorkspace(workspaceId, { apiId: wanted.toLowerCase() });
  if (!group) throw new Refusal('312');
  return group;
}
