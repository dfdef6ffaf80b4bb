import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WorkspaceStore } from '../../../core/ports/store.ts';
import { type SessionDeps, signedIn } from '../../../web/session/session-cookie.ts';
import { homePath } from '../../../web/session/workspace-pages.ts';

/**
 * The addresses before workspaces (docs/api.md §11): /dashboard… and the key forms of /account
 * lead to the same page of the user's last workspace. A GET is sent on with 303; a form with 307,
 * so it is posted again, unchanged, to its new address.
 */

export interface LegacyRouteOptions extends SessionDeps {
  workspaces: Pick<WorkspaceStore, 'workspacesOf'>;
}

const OLD_KEY_FORMS: Readonly<Record<string, string>> = {
  '/account/key': '/keys/main',
  '/account/keys': '/keys',
};

export async function legacyRoutes(app: FastifyInstance, options: LegacyRouteOptions): Promise<void> {
  const forward =
    (rest: (request: FastifyRequest) => string, status: 303 | 307) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const user = await signedIn(options, request);
      if (!user) return reply.redirect('/login', 303);
      const memberships = await options.workspaces.workspacesOf(user.user.id);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`${homePath(user.user, memberships, rest(request))}${query}`, status);
    };
  const after = (prefix: string) => (request: FastifyRequest) =>
    request.url.split('?')[0]?.slice(prefix.length) ?? '';

  app.get(
    '/dashboard',
    forward(() => '', 303),
  );
  app.get('/dashboard/*', forward(after('/dashboard'), 303));
  app.post('/dashboard/*', forward(after('/dashboard'), 307));
  for (const [old, now] of Object.entries(OLD_KEY_FORMS))
    app.post(
      old,
      forward(() => now, 307),
    );
  app.post('/account/keys/:id/revoke', forward(after('/account'), 307));
}
