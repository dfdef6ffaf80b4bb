import type { FastifyInstance } from 'fastify';
import { feature, storeOf } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
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
  services: async (kernel) => (await import('./services.ts')).groupServices(kernel),
  http: async () => (await import('./http.ts')).groupHttp,
  cli: {
    flags: GROUP_FLAGS,
    commands: lazyCommands(GROUP_USAGE, async () =>
      withDeps((await import('./cli/group-commands.ts')).GROUP_COMMANDS, storeOf),
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
