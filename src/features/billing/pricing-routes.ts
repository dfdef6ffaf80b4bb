import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Frame } from '../../web/frame.ts';
import { pageScope } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';
import { frameOf } from '../../web/session/handlers.ts';
import { signedIn } from '../../web/session/session-cookie.ts';
import { homeOf, workspaceFrame } from '../../web/session/workspace-pages.ts';
import type { BillingFeatureDeps } from './billing-deps.ts';
import { pricingPage } from './pricing-page.ts';
import { operatorContact, publicPlans, type Viewer } from './pricing-plans.ts';

/**
 * Who looks at /pricing, and for which workspace: `?workspace=<slug>` names one of theirs (the
 * billing page links so), else the one they opened last. Their role there decides the calls to act.
 */
async function viewerOf(
  deps: BillingFeatureDeps,
  request: FastifyRequest,
): Promise<{ viewer: Viewer; frame: Frame | undefined }> {
  const user = await signedIn(deps, request);
  if (!user) return { viewer: { kind: 'visitor', signupOpen: deps.signupMode === 'open' }, frame: undefined };
  const memberships = await deps.workspaces.workspacesOf(user.user.id);
  const asked = (request.query as { workspace?: unknown }).workspace;
  const chosen = memberships.find((m) => m.workspace.slug === asked);
  const workspace = chosen?.workspace ?? homeOf(user.user, memberships);
  const membership = memberships.find((m) => m.workspace.id === workspace?.id);
  if (!membership) return { viewer: { kind: 'homeless' }, frame: frameOf(user) };
  const { role } = membership;
  const { slug, name, plan } = membership.workspace;
  return {
    viewer: { kind: 'member', slug, name, role, plan },
    frame: workspaceFrame({ ...user, workspace: membership.workspace, role, memberships }),
  };
}

/**
 * GET /pricing: the public plans side by side (docs/api.md §17); public, signed in or not. While no
 * plan is public the page does not exist (the not-found page), and no page links to it (§22).
 */
export async function pricingRoutes(app: FastifyInstance, deps: BillingFeatureDeps): Promise<void> {
  pageScope(app);
  app.get('/pricing', async (request, reply) => {
    const plans = publicPlans(await deps.store.listPlans());
    if (plans.length === 0) return reply.callNotFound();
    const { viewer, frame } = await viewerOf(deps, request);
    // With a payment provider the billing page sells; without one, the operator is asked.
    const contact = deps.payments ? undefined : operatorContact(deps.settings.upgradeUrl, deps.mailFrom);
    return sendPage(reply, 200, pricingPage({ plans, viewer, frame, contact }));
  });
}
