import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../../../core/ports/mailer.ts';
import type { WindowCounter } from '../../../core/ports/shared-state.ts';
import type { AccountStore, SecretStore, SessionStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { pageScope } from '../../../web/page-errors.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import type { WorkspaceDeps } from '../../../web/session/workspace-pages.ts';
import type { AccountLife } from '../account-life.ts';
import type { ApiAccess } from '../api-access.ts';
import type { InvitationsService } from '../invitations.ts';
import type { MailLinkStore } from '../mail-links.ts';
import type { MembersService } from '../members.ts';
import type { OidcSignIn } from '../oidc-sign-in.ts';
import type { PendingSignIns } from '../sealed.ts';
import type { SignInService } from '../sign-in.ts';
import type { SignupMode } from '../signup-rules.ts';
import type { TwoFactorService } from '../two-factor.ts';
import type { WorkspaceAdmin } from '../workspace-admin.ts';
import { accountRoutes } from './account-routes.ts';
import { authRoutes } from './auth-routes.ts';
import { invitationRoutes } from './invitation-routes.ts';
import { keyRoutes } from './key-routes.ts';
import { legacyRoutes } from './legacy-routes.ts';
import { mailLinkRoutes } from './mail-link-routes.ts';
import { memberPageRoutes } from './member-page-routes.ts';
import { oidcRoutes } from './oidc-routes.ts';
import { settingsRoutes } from './settings-routes.ts';
import { twoFactorRoutes } from './two-factor-routes.ts';

/** Sign-up, sign-in and out, the person's Account Settings, a workspace's keys, and the old addresses. */
export interface AccountPagesOptions extends WorkspaceDeps {
  auth: SignInService;
  forms: FormTokens;
  keys: ApiAccess;
  members: MembersService;
  invitations: InvitationsService;
  admin: WorkspaceAdmin;
  /** SIGNUP: who may make an account. */
  signupMode: SignupMode;
  workspaces: Pick<AccountStore & WorkspaceStore, 'workspacesOf' | 'setLastWorkspace'>;
  store: MailLinkStore &
    Pick<SecretStore, 'secret'> &
    Pick<SessionStore, 'listSessionsOfUser' | 'deleteSessionOfUser'>;
  counter: WindowCounter;
  baseUrl: URL;
  /** Where mail goes; none without SMTP_URL. */
  mailer?: Mailer;
  emailVerification: 'required' | 'off';
  /** OpenID Connect sign-in, when configured. */
  oidc?: { issuer: string; clientId: string; clientSecret: string; name: string };
  /** The OpenID sign-in service, built when OIDC is configured. */
  oidcSignIn?: OidcSignIn;
  twoFactor: TwoFactorService;
  pendingSignIns: PendingSignIns;
  life: AccountLife;
  /** The QR code of a text as an image address (the two-factor secret's). */
  qrImage: (text: string) => Promise<string>;
}

export async function accountPages(app: FastifyInstance, options: AccountPagesOptions): Promise<void> {
  pageScope(app);
  await app.register(authRoutes, {
    ...options,
    oidcName: options.oidc?.name,
    resetByMail: options.mailer !== undefined,
  });
  await app.register(accountRoutes, options);
  await app.register(twoFactorRoutes, options);
  await app.register(keyRoutes, options);
  await app.register(legacyRoutes, options);
  await app.register(memberPageRoutes, { ...options, mails: options.mailer !== undefined });
  await app.register(settingsRoutes, options);
  await app.register(invitationRoutes, options);
  await app.register(mailLinkRoutes, options);
  await app.register(oidcRoutes, options);
}
