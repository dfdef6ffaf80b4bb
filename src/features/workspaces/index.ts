/**
 * People and their keys: sign-up and sign-in, Account Settings, API access (the main key and
 * further keys with scopes), keys' last use, GET /api/v1/account, and `snip plan|account|key …`.
 */
export { AccountSchema, accountApiRoutes, WorkspaceSchema } from './api/account-route.ts';
export { memberRoutes } from './api/member-routes.ts';
export { MEMBER_SCHEMAS } from './api/member-schemas.ts';
export { apiAccess } from './api-access.ts';
export { type Auditor, apiAuditor, cliAudit, userAuditor } from './audit-actor.ts';
export { ACCOUNT_COMMANDS, ACCOUNT_FLAGS } from './cli/account-commands.ts';
export { accountOperations, accountWithEmail, personalWorkspace } from './cli/account-operations.ts';
export { WORKSPACE_COMMANDS, WORKSPACE_FLAGS } from './cli/workspace-commands.ts';
export { type InvitationsService, invitationsService } from './invitations.ts';
export { KeyUses } from './key-uses.ts';
export { type MembersService, membersService } from './members.ts';
export { type OidcSignIn, oidcSignIn } from './oidc-sign-in.ts';
export { accountPages } from './pages/account-pages.ts';
export { type SignInService, signInService } from './sign-in.ts';
export { type WorkspaceAdmin, workspaceAdmin } from './workspace-admin.ts';
