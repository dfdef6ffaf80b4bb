import type { Store } from '../../../core/ports/store.ts';
import type { Command } from '../../../terminal/command.ts';
import { personalWorkspace } from '../../workspaces/index.ts';
import { workspaceGroups } from '../workspace-groups.ts';

/** `snip group …` (docs/api.md §6). */

export const GROUP_FLAGS = { 'api-id': { type: 'string' } } as const;

type GroupCommand = Command<typeof GROUP_FLAGS, { store: Store }>;

export const GROUP_COMMANDS: Record<string, GroupCommand> = {
  'group create': {
    synopsis: '<email> <name> [--api-id ID]',
    about: 'creates a group of the account',
    details: `  --api-id ID       its API identifier (a lower-case slug, not all digits); derived from the
                    name when not given`,
    flags: ['api-id'],
    args: 2,
    run: async ({ args: [email = '', name = ''], values, store }) => {
      const group = await groupOperations(store).createGroup(email, name, values['api-id']);
      return { id: group.id, api_id: group.apiId, name: group.name };
    },
  },
};

/** Operator use cases on groups, for `snip group create` and scripts that seed a store. */
export function groupOperations(store: Store) {
  return {
    async createGroup(email: string, name: string, apiId?: string) {
      const account = await personalWorkspace(store, email);
      return workspaceGroups(store).create(account, name, apiId);
    },
  };
}
