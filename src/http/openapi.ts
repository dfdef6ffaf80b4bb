import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ERROR_TABLE, type ErrorCode } from '../domain/errors.ts';

/** The OpenAPI 3.1 frame around the routes' own schemas (which @fastify/swagger collects). */
export function openapiDocument(baseUrl: URL): FastifyDynamicSwaggerOptions['openapi'] {
  const rows = (Object.keys(ERROR_TABLE) as ErrorCode[])
    .map((code) => `| ${code} | ${ERROR_TABLE[code].status} | ${ERROR_TABLE[code].message} |`)
    .join('\n');
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
