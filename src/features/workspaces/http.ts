import { joinPorts } from '../../core/ports/store.ts';
import { managementApi } from '../../http/management-api.ts';
import { qrImageUri } from '../../kernel/adapters.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { AccountSchema, accountApiRoutes, WorkspaceSchema } from './api/account-route.ts';
import { memberRoutes } from './api/member-routes.ts';
import { MEMBER_SCHEMAS } from './api/member-schemas.ts';
import type { KeyUses } from './key-uses.ts';
import { accountPages } from './pages/account-pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Buffered last-used times of keys; tests flush them. */
    keyUses: KeyUses;
  }
}

/** /api/v1/account, /workspace, /members and /invitations; sign-in, Account Settings and the workspace pages. */
export const workspaceHttp: FeatureHttp<
  'accounts' | 'workspaces' | 'keys' | 'links' | 'tokens' | 'sessions' | 'secrets'
> = {
  schemas: [AccountSchema, WorkspaceSchema, ...MEMBER_SCHEMAS],
  async apiScope(v1, kernel) {
    // Every /api/v1 request presents a workspace key: checked, limited, its use noted.
    managementApi(v1, (await kernel.use('workspaces')).keys);
  },
  async api(v1, kernel, ports) {
    const { members, invitations, admin } = await kernel.use('workspaces');
    const store = joinPorts(ports);
    const { setTracking } = await kernel.use('conversions');
    await v1.register(accountApiRoutes, { store, admin, setTracking });
    await v1.register(memberRoutes, { members, invitations, store, origin: kernel.origin });
  },
  async routes(app, kernel) {
    app.decorate('keyUses', (await kernel.use('workspaces')).keyUses);
  },
  async pages(app, kernel, ports) {
    const workspaces = await kernel.use('workspaces');
    const { config } = kernel;
    await app.register(accountPages, {
      ...kernel.session,
      auth: workspaces.auth,
      forms: workspaces.forms,
      keys: workspaces.apiAccess,
      members: workspaces.members,
      invitations: workspaces.invitations,
      admin: workspaces.admin,
      signupMode: config.signup,
      store: joinPorts(ports),
      counter: kernel.counter,
      baseUrl: config.baseUrl,
      mailer: await kernel.mailer(),
      emailVerification: config.emailVerification,
      oidc: config.oidc,
      oidcSignIn: workspaces.oidc,
      twoFactor: workspaces.twoFactor,
      pendingSignIns: workspaces.pendingSignIns,
      life: workspaces.life,
      qrImage: qrImageUri,
    });
  },
};
