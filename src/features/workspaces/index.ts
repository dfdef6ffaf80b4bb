import { feature, withStore } from '../../kernel/feature.ts';
import { lazyCommands } from '../../terminal/command.ts';
import { ACCOUNT_FLAGS, ACCOUNT_USAGE } from './cli/account-usage.ts';
import { WORKSPACE_FLAGS, WORKSPACE_USAGE } from './cli/workspace-usage.ts';
import type { WorkspaceServices } from './services.ts';

/**
 * People and their keys: sign-up and sign-in, Account Settings, API access (the main key and
 * further keys with scopes), members and invitations, keys' last use, GET /api/v1/account, and
 * `snip plan|account|key|workspace|member …`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    workspaces: WorkspaceServices;
  }
}

export const workspacesFeature = feature({
  name: 'workspaces',
  ports: [
    'accounts',
    'workspaces',
    'invitations',
    'keys',
    'secrets',
    'links',
    'tokens',
    'sessions',
    'audit',
    'abuse',
  ],
  services: async (kernel, ports) => (await import('./services.ts')).workspaceServices(kernel, ports),
  http: async () => (await import('./http.ts')).workspaceHttp,
  cli: {
    flags: { ...ACCOUNT_FLAGS, ...WORKSPACE_FLAGS },
    commands: {
      ...lazyCommands(ACCOUNT_USAGE, async () =>
        withStore((await import('./cli/account-commands.ts')).ACCOUNT_COMMANDS),
      ),
      ...lazyCommands(WORKSPACE_USAGE, async () =>
        withStore((await import('./cli/workspace-commands.ts')).WORKSPACE_COMMANDS),
      ),
    },
  },
});

export { accountWithEmail, personalWorkspace } from './account-of.ts';
export { type Auditor, apiAuditor, cliAudit, userAuditor } from './audit-actor.ts';
export type { InvitationsService } from './invitations.ts';
export type { MembersService } from './members.ts';
export type { SignInService } from './sign-in.ts';
export { type WorkspaceAdmin, workspaceAdmin } from './workspace-admin.ts';
