import type { FastifyInstance, FastifyReply } from 'fastify';
import { PaymentProviderError } from '../../core/ports/payments.ts';
import { pagePolicy } from '../../http/security-headers.ts';
import { field } from '../../web/form-fields.ts';
import type { PageError } from '../../web/notices.ts';
import { pageScope } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';
import {
  type InWorkspace,
  workspaceForm,
  workspaceFrame,
  workspacePage,
} from '../../web/session/workspace-pages.ts';
import type { BillingFeatureDeps } from './billing-deps.ts';
import { billingEvents } from './billing-events.ts';
import { billingPage } from './billing-page.ts';
import { type BillingService, billingService, type Leave } from './billing-service.ts';
import { stripeWebhook } from './stripe-webhook.ts';

/**
 * Settings → Billing, Stripe Checkout and portal, POST /webhooks/stripe (docs/api.md §17). Billing
 * is the owners' (`plan:change`): admins, who see the plan under Settings, get the 403 page here.
 */

interface PageParts {
  deps: BillingFeatureDeps;
  service: BillingService;
}

/**
 * The page's forms lead, through a redirect, to Stripe's pages: browsers hold that redirect to
 * form-action, so with Stripe the page allows them there.
 */
function pageHeaders(deps: BillingFeatureDeps, reply: FastifyReply): void {
  if (!deps.payments) return;
  const sources = ["'self'", ...deps.payments.pageSources].join(' ');
  reply.header('content-security-policy', pagePolicy({ formAction: sources }));
}

function renderer({ deps, service }: PageParts) {
  return async (
    reply: FastifyReply,
    here: InWorkspace,
    status: number,
    extra: { done?: string; error?: PageError },
  ) => {
    const overview = await service.overview(here.workspace);
    pageHeaders(deps, reply);
    const view = {
      frame: workspaceFrame(here),
      workspace: here.workspace,
      overview,
      stripe: Boolean(deps.payments),
    };
    return sendPage(reply, status, billingPage({ ...view, ...extra }));
  };
}

async function billingPages(app: FastifyInstance, parts: PageParts): Promise<void> {
  pageScope(app);
  const { deps, service } = parts;
  const render = renderer(parts);

  app.get(
    '/w/:workspace/billing',
    workspacePage(deps, 'plan:change', (request, reply, here) => {
      const done = field(request.query, 'checkout') === 'done' ? 'checkout' : undefined;
      return render(reply, here, 200, { done });
    }),
  );

  /** Off to Stripe, or the page again with why not (Stripe refusing or unreachable: a 502). */
  const leaveFor = (path: string, leave: (here: InWorkspace, body: unknown) => Promise<Leave>) =>
    app.post(
      path,
      workspaceForm(deps, 'plan:change', async (request, reply, here) => {
        try {
          const left = await leave(here, request.body);
          if ('url' in left) return reply.redirect(left.url, 303);
          const { status, ...error } = left.refused;
          return render(reply, here, status, { error });
        } catch (error) {
          if (!(error instanceof PaymentProviderError)) throw error;
          request.log.warn({ err: error }, 'billing: Stripe failed');
          const shown = {
            code: 'payment-unavailable',
            message: 'Stripe could not be reached. Try again shortly.',
          };
          return render(reply, here, 502, { error: shown });
        }
      }),
    );

  leaveFor('/w/:workspace/billing/checkout', (here, body) =>
    service.checkout(here.workspace, here.user, field(body, 'plan').trim()),
  );
  leaveFor('/w/:workspace/billing/portal', (here) => service.portal(here.workspace));
}

export async function billingRoutes(app: FastifyInstance, deps: BillingFeatureDeps): Promise<void> {
  const service = billingService({
    store: deps.store,
    payments: deps.payments,
    baseUrl: deps.baseUrl,
    upgradeUrl: deps.settings.upgradeUrl,
    mailFrom: deps.mailFrom,
  });
  const handle = billingEvents({
    store: deps.store,
    freePlan: deps.freePlan,
    now: deps.now,
    onPlanChanged: (workspace, from, to) =>
      app.log.info({ workspace: workspace.slug, from, to }, 'billing: plan changed by Stripe'),
    onAuditFailed: (error) => app.log.warn({ err: error }, 'billing: the audit log could not be written'),
  });
  await app.register(stripeWebhook, { payments: deps.payments, handle });
  await app.register(billingPages, { deps, service });
}
