import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import { unreadableRequestResponse } from '../../http/openapi-server-errors.ts';

export interface OpsRouteOptions {
  checks: readonly ReadinessCheck[];
  registry: Registry;
  /** Under `snip serve --processes N`: every worker's series rather than this process's alone. */
  scrape?: () => Promise<string>;
  /** Bound on each readiness check, so a hung dependency answers 503 instead of hanging the probe. */
  timeoutMs: number;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET /healthz (the process answers), /readyz (its dependencies answer), /metrics (Prometheus). */
export async function opsRoutes(app: FastifyInstance, options: OpsRouteOptions): Promise<void> {
  const status = {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ok', 'unavailable'] },
      checks: { type: 'object', additionalProperties: { type: 'string' } },
    },
    required: ['status'],
  };

  app.get(
    '/healthz',
    {
      schema: {
        operationId: 'checkLiveness',
        summary: 'Liveness: the process answers',
        tags: ['Operations'],
        security: [],
        response: {
          200: { ...status, description: 'The process is up.' },
          '4xx': unreadableRequestResponse(),
        },
      },
    },
    async () => ({
      status: 'ok',
    }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        operationId: 'checkReadiness',
        summary: 'Readiness: the store (and Redis, when configured) answer',
        description:
          'Each check is bounded by STORE_TIMEOUT_MS: a dependency that hangs answers 503 rather than holding the probe.',
        tags: ['Operations'],
        security: [],
        response: {
          200: { ...status, description: 'Every dependency answered.' },
          '4xx': unreadableRequestResponse(),
          503: { ...status, description: 'A dependency did not answer; `checks` says which.' },
        },
      },
    },
    async (_request, reply) => {
      const results = await Promise.all(
        options.checks.map(async ({ name, check }) => {
          try {
            await within(check(), options.timeoutMs);
            return [name, 'ok'] as const;
          } catch (error) {
            return [name, error instanceof Error ? error.message : 'failed'] as const;
          }
        }),
      );
      const ready = results.every(([, result]) => result === 'ok');
      return reply
        .code(ready ? 200 : 503)
        .send({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
    },
  );

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(options.registry.contentType);
    return options.scrape ? options.scrape() : options.registry.metrics();
  });
}
