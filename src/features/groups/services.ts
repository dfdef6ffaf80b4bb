import type { Kernel } from '../../kernel/kernel.ts';
import { groupsApi } from './api/groups-api.ts';
import { workspaceGroups } from './workspace-groups.ts';

/** Groups of links (ADR 005): the service, and the /api/v1 resources over it. */
export async function groupServices(kernel: Kernel) {
  const groups = workspaceGroups(kernel.store);
  return { groups, api: groupsApi({ store: kernel.store, groups }) };
}

export type GroupServices = Awaited<ReturnType<typeof groupServices>>;
