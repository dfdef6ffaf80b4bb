import type { FastifyInstance } from 'fastify';
import type { SessionStore, WorkspaceStore } from '../../../core/ports/store.ts';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import type { FormTokens } from '../../../web/session/csrf.ts';
import { frameOf, signedInForm, signedInPage } from '../../../web/session/handlers.ts';
import type { SessionDeps } from '../../../web/session/session-cookie.ts';
import { sessionHandle } from '../../../web/session/sessions.ts';
import type { AccountLife } from '../account-life.ts';
import { PASSWORD_MIN, type SignInService } from '../sign-in.ts';
import type { TwoFactorService } from '../two-factor.ts';
import { type AccountView, accountPage } from './account-page.ts';
import { accountTrustRoutes, type RenderAccount } from './account-trust-routes.ts';

/** GET /account (the person's settings) and its password change; the rest of its forms beside it. */

export interface AccountRouteOptions extends SessionDeps {
  auth: SignInService;
  twoFactor: TwoFactorService;
  life: AccountLife;
  forms: FormTokens;
  workspaces: Pick<WorkspaceStore, 'workspacesOf'>;
  store: Pick<SessionStore, 'listSessionsOfUser' | 'deleteSessionOfUser'>;
}

/** Account Settings for the signed-in person, with what a form refused or just did. */
export function accountRenderer(options: AccountRouteOptions): RenderAccount {
  return async (reply, user, status, extra = {}) => {
    const id = user.user.id;
    const [memberships, stored, codesLeft] = await Promise.all([
      options.workspaces.workspacesOf(id),
      options.store.listSessionsOfUser(id, new Date(options.now())),
      user.user.twoFactor ? options.twoFactor.recoveryCodesLeft(user.user) : Promise.resolve(0),
    ]);
    const sessions = stored.map((session) => ({
      handle: sessionHandle(session.idHash),
      agent: session.agent,
      createdAt: session.createdAt,
      lastSeenAt: session.lastSeenAt,
      current: session.idHash.equals(user.session.idHash),
    }));
    const view: AccountView = {
      frame: frameOf(user),
      user: user.user,
      memberships,
      minPassword: PASSWORD_MIN,
      sessions,
      codesLeft,
      mails: options.life.mails,
      ...extra,
    };
    return sendPage(reply, status, accountPage(view));
  };
}

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { auth } = options;
  const render = accountRenderer(options);

  app.get(
    '/account',
    signedInPage(options, async (request, reply, user) => {
      const done = (request.query as Record<string, unknown>).done;
      return render(reply, user, 200, { done: typeof done === 'string' ? done : undefined });
    }),
  );

  app.post(
    '/account/password',
    signedInForm(options, async (request, reply, user) => {
      const [current, next] = [field(request.body, 'current'), field(request.body, 'password')];
      try {
        await auth.changePassword(user.user, current, next, request.ip);
      } catch (error) {
        const { status, error: shown } = refusedOn(reply, error);
        return render(reply, user, status, { passwordError: shown });
      }
      await options.sessions.endOthers(user.user.id, user.session);
      return reply.redirect('/account?done=password-changed', 303);
    }),
  );

  await app.register(accountTrustRoutes, { ...options, render });
}
