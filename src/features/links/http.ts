import { ProblemSchema } from '../../http/openapi-parts.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import type { AbTestScheduler } from './ab-tests.ts';
import { bulkRoutes } from './api/bulk-routes.ts';
import { createEndpoint } from './api/create-endpoint.ts';
import { CREATE_SCHEMAS } from './api/create-schemas.ts';
import { linkRoutes } from './api/link-routes.ts';
import { LINK_SCHEMAS } from './api/link-schemas.ts';
import { linkPages } from './pages/link-pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The end of A/B tests; tests run one poll with their own clock. */
    abTests: Pick<AbTestScheduler, 'runOnce'>;
  }
}

/** POST /create in its envelope, /api/v1/links one by one and in bulk, the dashboard and the link pages. */
export const linkHttp: FeatureHttp = {
  // The management API's problem document sits between /create's envelopes and the links' resources,
  // where the document has always listed it.
  schemas: [...CREATE_SCHEMAS, ProblemSchema, ...LINK_SCHEMAS],
  async routes(app, kernel) {
    const { live, abTests } = await kernel.use('links');
    app.decorate('abTests', { runOnce: () => abTests.runOnce() });
    const domains = await kernel.use('domains');
    await app.register(createEndpoint, {
      live,
      envelope: { ...kernel.config, origins: domains.registry, now: kernel.now },
      onOutcome: (error) => kernel.metrics.createOutcomes.inc({ endpoint: '/create', error }),
    });
  },
  async api(v1, kernel) {
    const { api, bulk } = await kernel.use('links');
    await v1.register(bulkRoutes, { bulk });
    await v1.register(linkRoutes, { api, origin: kernel.origin });
  },
  async pages(app, kernel) {
    const links = await kernel.use('links');
    const domains = await kernel.use('domains');
    const { groups } = await kernel.use('groups');
    await app.register(linkPages, {
      ...kernel.session,
      dashboard: links.dashboard,
      groups,
      createLinkFor: links.live.forWorkspace,
      bulk: links.bulk,
      editor: links.editor,
      origins: domains.registry,
      domainOf: domains.addressed,
      domainChoices: domains.choices,
    });
  },
};
