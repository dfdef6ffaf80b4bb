import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { answerErrorsAsProblems } from '../../http/problem-errors.ts';
import { opsRoutes } from './health.ts';
import { serveOpenapi } from './openapi.ts';

/** Operating Snip: GET /healthz, /readyz, /metrics and /openapi.json. */
export interface OpsFeatureOptions {
  checks: readonly ReadinessCheck[];
  registry: Registry;
  /** Bound on each readiness check. */
  timeoutMs: number;
}

export async function opsFeature(app: FastifyInstance, options: OpsFeatureOptions): Promise<void> {
  answerErrorsAsProblems(app);
  await app.register(opsRoutes, options);
  serveOpenapi(app);
  for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json'])
    refuseOtherMethods(app, path, ['GET']);
}
