import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WorkspaceStore } from '../../../core/ports/store.ts';
import { field } from '../../../web/form-fields.ts';
import { refusedOn } from '../../../web/page-refusals.ts';
import { sendPage } from '../../../web/send-page.ts';
import { frameOf, signedInForm, signedInPage } from '../../../web/session/handlers.ts';
import type { SessionDeps, SignedIn } from '../../../web/session/session-cookie.ts';
import { PASSWORD_MIN, type SignInService } from '../sign-in.ts';
import { type AccountView, accountPage } from './account-page.ts';

/** GET /account (the person's settings) and its password change. */

export interface AccountRouteOptions extends SessionDeps {
  auth: SignInService;
  workspaces: Pick<WorkspaceStore, 'workspacesOf'>;
}

export async function accountRoutes(app: FastifyInstance, options: AccountRouteOptions): Promise<void> {
  const { auth } = options;

  async function render(
    reply: FastifyReply,
    user: SignedIn,
    status: number,
    extra: Partial<AccountView> = {},
  ) {
    const memberships = await options.workspaces.workspacesOf(user.user.id);
    const view = { frame: frameOf(user), user: user.user, memberships, minPassword: PASSWORD_MIN, ...extra };
    return sendPage(reply, status, accountPage(view));
  }

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
}
