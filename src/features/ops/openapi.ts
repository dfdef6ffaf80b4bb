import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { API_ERROR_CODES, API_ERRORS } from '../../core/errors.ts';
import { API_STATUS } from '../../http/api-statuses.ts';

/** The OpenAPI 3.1 frame around the routes' own schemas (which @fastify/swagger collects). */
export function openapiDocument(baseUrl: URL): FastifyDynamicSwaggerOptions['openapi'] {
  const rows = API_ERROR_CODES.map((code) => `| ${code} | ${API_STATUS[code]} | ${API_ERRORS[code]} |`).join(
    '\n',
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Snip',
      version: '1',
      description:
        'Snip shortens long http(s) URLs. Every /create answer is a JSON envelope whose `error` field ' +
        `carries the code below (\`""\` on success).\n\n| error | HTTP | meaning |\n|---|---|---|\n${rows}`,
    },
    servers: [{ url: baseUrl.href.replace(/\/$/, '') }],
    components: {
      securitySchemes: {
        ApiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'JSON encoding.' },
      },
    },
  };
}

/**
 * @fastify/swagger on the root instance, before any route, so it sees them all; schemas are
 * referenced by their $id.
 */
export async function collectOpenapi(app: FastifyInstance, baseUrl: URL): Promise<void> {
  await app.register(swagger, {
    openapi: openapiDocument(baseUrl),
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
}

/** GET /openapi.json: the collected description, downloadable. */
export function serveOpenapi(app: FastifyInstance): void {
  app.get('/openapi.json', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-disposition', 'inline; filename="openapi.json"');
    return app.swagger();
  });
}
