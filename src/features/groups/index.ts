import type { FastifyInstance } from 'fastify';
import { feature, withStore } from '../../kernel/feature.ts';
import { lazyCommands } from '../../terminal/command.ts';
import { GROUP_FLAGS, GROUP_USAGE } from './cli/group-usage.ts';
import type { GroupFormOptions } from './pages/group-forms.ts';
import type { GroupServices } from './services.ts';

/**
 * Groups of links (ADR 005): named sets a workspace sorts its links into, addressed by numeric ID or
 * API identifier. The service, the /api/v1/groups resources, the dashboard's groups card and
 * `snip group …`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    groups: GroupServices;
  }
}

export const groupsFeature = feature({
  name: 'groups',
  ports: ['groups', 'links', 'accounts'],
  services: async (_kernel, ports) => (await import('./services.ts')).groupServices(ports),
  http: async () => (await import('./http.ts')).groupHttp,
  cli: {
    flags: GROUP_FLAGS,
    commands: lazyCommands(GROUP_USAGE, async () =>
      withStore((await import('./cli/group-commands.ts')).GROUP_COMMANDS),
    ),
  },
});

export { groupOrRefuse } from './find-group.ts';
export { groupFields, isApiId } from './group-fields.ts';
export { groupsCard } from './pages/groups-card.ts';
export type { WorkspaceGroups } from './workspace-groups.ts';

/** The groups card's forms (create, rename, delete), for the dashboard that shows the card; loaded on use. */
export async function groupForms(app: FastifyInstance, options: GroupFormOptions): Promise<void> {
  return (await import('./pages/group-forms.ts')).groupForms(app, options);
}
