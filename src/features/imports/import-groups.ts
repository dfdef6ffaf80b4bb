import type { Group } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import type { GroupStore } from '../../core/ports/store.ts';
import { groupFields, groupOrRefuse, isApiId } from '../groups/index.ts';

/**
 * The groups an import names, found or made once per name: a number is a group's ID (312 when the
 * account has none such); anything else is an API identifier or a name of one of its groups, and
 * when none matches, a group of that name is created (its API identifier derived from the name, with
 * `-2`, `-3`… when another group has it). A second run finds the group by its name.
 */

export type ImportGroupStore = Pick<GroupStore, 'findGroupOfWorkspace' | 'createGroup' | 'listGroups'>;

/** Tries of an API identifier with a suffix before a name is given up. */
const SUFFIXES = 20;

export function importGroups(store: ImportGroupStore, workspaceId: number) {
  const known = new Map<string, Promise<Group>>();
  const created: string[] = [];

  const noName = (ref: string) =>
    new Refusal(
      '312',
      `No group of this account is "${ref}", and no group can have that name (1-100 characters).`,
    );

  async function byName(name: string): Promise<Group | undefined> {
    const wanted = name.toLowerCase();
    return (await store.listGroups(workspaceId)).find((group) => group.name.toLowerCase() === wanted);
  }

  async function create(ref: string): Promise<Group> {
    let fields: { name: string; apiId: string };
    try {
      fields = groupFields(ref);
    } catch {
      throw noName(ref);
    }
    for (let attempt = 1; attempt <= SUFFIXES; attempt++) {
      const apiId = attempt === 1 ? fields.apiId : `${fields.apiId.slice(0, 60)}-${attempt}`;
      const result = await store.createGroup(workspaceId, fields.name, apiId);
      if (result.kind === 'created') {
        created.push(result.group.name);
        return result.group;
      }
    }
    throw noName(ref);
  }

  async function findOrCreate(ref: string): Promise<Group> {
    if (/^\d{1,15}$/.test(ref)) return groupOrRefuse(store, workspaceId, ref);
    const apiId = ref.toLowerCase();
    const byApiId = isApiId(apiId) ? await store.findGroupOfWorkspace(workspaceId, { apiId }) : undefined;
    return byApiId ?? (await byName(ref)) ?? create(ref);
  }

  return {
    /** The group this reference names, the same promise for every row that names it. */
    resolve(ref: string): Promise<Group> {
      // Names match in any case, so "Sale" and "sale" in one file must not race to make two groups.
      const key = ref.trim().toLowerCase();
      let group = known.get(key);
      if (!group) {
        group = findOrCreate(ref.trim());
        known.set(key, group);
      }
      return group;
    },

    /** Names of the groups made so far, in the order they were made. */
    created: (): readonly string[] => created,
  };
}

export type ImportGroups = ReturnType<typeof importGroups>;
