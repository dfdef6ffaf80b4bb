import type { AccountStore, GroupStore } from '../../../core/ports/store.ts';
import type { StoreOf } from '../../../kernel/feature.ts';
import type { CommandCode } from '../../../terminal/command.ts';
import { personalWorkspace } from '../../workspaces/index.ts';
import { workspaceGroups } from '../workspace-groups.ts';
import type { GROUP_FLAGS } from './group-usage.ts';

/** `snip group …` (docs/api.md §6). */

type GroupCommand = CommandCode<typeof GROUP_FLAGS, StoreOf<'accounts' | 'groups'>>;

export const GROUP_COMMANDS: Record<string, GroupCommand> = {
  'group create': {
    run: async ({ args: [email = '', name = ''], values, store }) => {
      const group = await groupOperations(store).createGroup(email, name, values['api-id']);
      return { id: group.id, api_id: group.apiId, name: group.name };
    },
  },
};

/** Operator use cases on groups, for `snip group create` and scripts that seed a store. */
export function groupOperations(store: AccountStore & GroupStore) {
  return {
    async createGroup(email: string, name: string, apiId?: string) {
      const account = await personalWorkspace(store, email);
      return workspaceGroups(store).create(account, name, apiId);
    },
  };
}
