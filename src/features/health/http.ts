import type { FastifyInstance } from 'fastify';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { pageScope } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';
import { frameOf, signedInForm, signedInPage } from '../../web/session/handlers.ts';
import { CheckAnswer, checkRoute } from './api/check-route.ts';
import { mailPage } from './pages/mail-page.ts';
import type { HealthScheduler } from './scheduler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Link health's rounds and digest; tests run one poll with their own clock. */
    linkHealth: Pick<HealthScheduler, 'runOnce'> & { digest(): Promise<number> };
  }
}

/** POST /api/v1/links/{code}/check, and the person's mail settings at /account/mail. */
export const healthHttp: FeatureHttp<'links'> = {
  schemas: [CheckAnswer],
  async routes(app: FastifyInstance, kernel) {
    const { scheduler, digest } = await kernel.use('health');
    app.decorate('linkHealth', { runOnce: () => scheduler.runOnce(), digest: () => digest.runOnce() });
  },
  async api(v1, kernel, ports) {
    const { scheduler } = await kernel.use('health');
    const domains = await kernel.use('domains');
    await v1.register(checkRoute, {
      findLink: (workspaceId, domain, code) =>
        ports.links.findLinkOfWorkspace(workspaceId, domains.addressed(workspaceId, domain), code),
      checkNow: (link) => scheduler.checkNow(link),
    });
  },
  async pages(app, kernel) {
    const { mail } = await kernel.use('health');
    const session = kernel.session;
    const mailConfigured = kernel.config.mail !== undefined;
    await app.register(async (scope) => {
      pageScope(scope);
      scope.get(
        '/account/mail',
        signedInPage(session, async (request, reply, user) => {
          const done = (request.query as Record<string, unknown>).done;
          const healthMail = await mail.isOn(user.user.id);
          const view = { frame: frameOf(user), healthMail, mailConfigured };
          return sendPage(
            reply,
            200,
            mailPage({ ...view, done: typeof done === 'string' ? done : undefined }),
          );
        }),
      );
      scope.post(
        '/account/mail',
        signedInForm(session, async (request, reply, user) => {
          const on = (request.body as Record<string, unknown> | undefined)?.health_mail === 'on';
          await mail.set(user.user, on);
          return reply.redirect('/account/mail?done=saved', 303);
        }),
      );
    });
  },
};
