import { refuseOtherMethods } from '../../http/method-guard.ts';
import { answerErrorsAsProblems } from '../../http/problem-errors.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { DOCS_ASSETS, docsRoute } from './docs-page.ts';
import { opsRoutes } from './health.ts';
import { countRequests, observeRuntime } from './metrics.ts';
import { collectOpenapi, serveOpenapi } from './openapi.ts';

/** Operating Snip: GET /healthz, /readyz, /metrics, /openapi.json and its reference page, /docs. */
export const opsHttp: FeatureHttp<'upkeep'> = {
  assets: DOCS_ASSETS,
  async early(app, kernel) {
    // Before any route: the collector sees each route as it is added, the counter each answer.
    await collectOpenapi(app, kernel.config.baseUrl);
    countRequests(app, kernel.metrics);
  },
  async routes(app, kernel, ports) {
    // What the click buffer and the link cache keep count of anyway, read when scraped.
    const { clicks } = await kernel.use('analytics');
    const { cache } = await kernel.use('redirect');
    observeRuntime(kernel.metrics, { clicks, cache });
    await app.register(docsRoute, { frameOf: kernel.frameOf });
    const checks = [
      { name: 'store', check: () => ports.upkeep.ping() },
      ...(kernel.given.readinessChecks ?? []),
    ];
    await app.register(async (api) => {
      answerErrorsAsProblems(api);
      await api.register(opsRoutes, {
        checks,
        registry: kernel.metrics.registry,
        scrape: kernel.given.workerMetrics?.scrape,
        timeoutMs: kernel.config.storeTimeoutMs,
      });
      serveOpenapi(api);
    });
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
      refuseOtherMethods(app, path, ['GET']);
  },
};
