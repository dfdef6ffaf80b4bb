import { joinPorts, type Ports } from '../../core/ports/store.ts';
import { groupsApi } from './api/groups-api.ts';
import { workspaceGroups } from './workspace-groups.ts';

/** Groups of links (ADR 005): the service, and the /api/v1 resources over it. */
export async function groupServices(ports: Pick<Ports, 'groups' | 'links'>) {
  const groups = workspaceGroups(ports.groups);
  return { groups, api: groupsApi({ store: joinPorts(ports), groups }) };
}

export type GroupServices = Awaited<ReturnType<typeof groupServices>>;
