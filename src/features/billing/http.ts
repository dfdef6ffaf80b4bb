import { joinPorts } from '../../core/ports/store.ts';
import { paymentsOf } from '../../kernel/adapters.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { readSiteFacts } from '../../web/site-facts.ts';
import type { BillingFeatureDeps } from './billing-deps.ts';
import { billingRoutes } from './billing-routes.ts';
import { publicPlans } from './pricing-plans.ts';
import { pricingRoutes } from './pricing-routes.ts';

/** /pricing, Settings → Billing, and Stripe's checkout, portal and webhooks when configured. */
export const billingHttp: FeatureHttp<'billing' | 'accounts' | 'workspaces' | 'links' | 'audit'> = {
  // Before any page: each page learns whether /pricing lists a plan, so its links show only then.
  async early(app, _kernel, ports) {
    const store = joinPorts(ports);
    readSiteFacts(app, async () => ({ pricing: publicPlans(await store.listPlans()).length > 0 }));
  },
  async routes(app, kernel, ports) {
    const { config } = kernel;
    const deps: BillingFeatureDeps = {
      ...kernel.session,
      store: joinPorts(ports),
      settings: config.billing,
      payments: await paymentsOf(kernel),
      freePlan: config.signupPlan,
      mailFrom: config.mail?.from,
      baseUrl: config.baseUrl,
      signupMode: config.signup,
      frameOf: kernel.frameOf,
    };
    await app.register(pricingRoutes, deps);
    await app.register(billingRoutes, deps);
  },
};
