/**
 * Groups of links (ADR 005): named sets an account sorts its links into, addressed by numeric ID or
 * API identifier. The service, the /api/v1/groups resources, the dashboard's groups card and
 * `snip group …`.
 */

export { groupRoutes } from './api/group-routes.ts';
export { GROUP_SCHEMAS } from './api/group-schemas.ts';
export { groupsApi } from './api/groups-api.ts';
export { GROUP_COMMANDS, GROUP_FLAGS, groupOperations } from './cli/group-commands.ts';
export { groupOrRefuse } from './find-group.ts';
export { groupFields, isApiId } from './group-fields.ts';
export { groupForms } from './pages/group-forms.ts';
export { groupsCard } from './pages/groups-card.ts';
export { type WorkspaceGroups, workspaceGroups } from './workspace-groups.ts';
