import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { answerErrorsAsProblems } from '../../http/problem-errors.ts';
import type { FrameOf } from '../../web/frame.ts';
import { DOCS_ASSETS, docsRoute } from './docs-page.ts';
import { opsRoutes } from './health.ts';
import { serveOpenapi } from './openapi.ts';

/** Operating Snip: GET /healthz, /readyz, /metrics, /openapi.json and its reference page, /docs. */
export interface OpsFeatureOptions {
  checks: readonly ReadinessCheck[];
  registry: Registry;
  /** Bound on each readiness check. */
  timeoutMs: number;
  /** Who is signed in, for the navigation of /docs. */
  frameOf: FrameOf;
}

/** The files /docs loads from /assets/: the Redoc bundle and the script that starts it. */
export const OPS_ASSETS = DOCS_ASSETS;

export async function opsFeature(app: FastifyInstance, options: OpsFeatureOptions): Promise<void> {
  await app.register(docsRoute, { frameOf: options.frameOf });
  await app.register(async (api) => {
    answerErrorsAsProblems(api);
    await api.register(opsRoutes, options);
    serveOpenapi(api);
  });
  for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
    refuseOtherMethods(app, path, ['GET']);
}

export { OPS_COMMANDS } from './cli/ops-commands.ts';
export {
  countRequests,
  createMetrics,
  type Metrics,
  observeRuntime,
  redirectCounters,
  timedInspector,
  timedStore,
} from './metrics.ts';
export { collectOpenapi } from './openapi.ts';
export { webhookMetrics } from './webhook-metrics.ts';
