import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import type { Config } from './config.ts';
import { socialMatcher } from './domain/social.ts';
import { envelopeRenderer } from './http/envelope.ts';
import { openapiDocument } from './http/openapi.ts';
import { createRoute, MAX_BODY_BYTES } from './http/routes/create.ts';
import { ErrorEnvelope, SuccessEnvelope } from './http/schemas.ts';
import { createInspector } from './inspect/inspector.ts';
import type { Inspector } from './inspect/types.ts';
import { createLinkService } from './services/create-link.ts';
import { MemoryWindowCounter, type WindowCounter } from './state/window-counter.ts';
import type { Store } from './store/ports.ts';

export interface AppDeps {
  store: Store;
  /** Defaults to the real inspector with the configured address guard. */
  inspector?: Inspector;
  counter?: WindowCounter;
  logger?: FastifyServerOptions['logger'];
  now?: () => number;
}

/** Builds the whole application without listening; tests call inject() on it. */
export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const options: FastifyServerOptions = {
    logger: deps.logger ?? false,
    // A hop count: only the addresses the operator's own proxies appended are believed (proxy-addr semantics).
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: MAX_BODY_BYTES,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // No per-request info lines on the hot path; errors are still logged, with keys redacted.
    logController: new LogController({ disableRequestLogging: true }),
  };
  const app: FastifyInstance = Fastify(options);
  const inspector = deps.inspector ?? createInspector({ allowPrivate: config.allowPrivateTargets });
  const counter = deps.counter ?? new MemoryWindowCounter();
  app.addHook('onClose', async () => {
    if (!deps.inspector) await inspector.close();
  });

  app.removeContentTypeParser('text/plain');
  await app.register(formbody, { bodyLimit: MAX_BODY_BYTES });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fieldNameSize: 100,
      fieldSize: MAX_BODY_BYTES,
      fields: 20,
      fileSize: MAX_BODY_BYTES,
      files: 3,
      parts: 25,
    },
  });
  app.addSchema(SuccessEnvelope);
  app.addSchema(ErrorEnvelope);
  await app.register(swagger, {
    openapi: openapiDocument(config.baseUrl),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });

  const createLink = createLinkService({
    store: deps.store,
    inspector,
    counter,
    isSocial: socialMatcher(config.socialDomains),
    baseUrl: config.baseUrl,
    failedKeyLimit: config.failedKeyLimit,
    failedKeyWindowMs: config.failedKeyWindowSeconds * 1000,
    now: deps.now,
  });
  const envelope = envelopeRenderer({ ...config, now: deps.now });
  await app.register(createRoute, { path: '/create', createLink, envelope, summary: 'Create a short link' });

  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-disposition', 'inline; filename="openapi.json"');
    return app.swagger();
  });
  return app;
}
