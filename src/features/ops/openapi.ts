import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { API_ERROR_CODES, API_ERRORS } from '../../core/errors.ts';
import { API_STATUS } from '../../http/api-statuses.ts';

/**
 * The groups operations are listed under, in this order (GET /docs shows them as its sections). A
 * tag no operation uses is left out of the document.
 */
const TAGS = [
  {
    name: 'Create',
    description:
      'POST /create, the endpoint existing clients script against: both encodings, the JSON envelope, ' +
      'the numbered codes.',
  },
  { name: 'Links', description: "The management API: an account's links, found, changed and exported." },
  { name: 'Groups', description: 'The management API: the groups links are filed in.' },
  {
    name: 'Stats',
    description: 'The management API: visit analytics of a link or of the whole account, by day or by hour.',
  },
  { name: 'Account', description: "The management API: the key's account, its plan and usage." },
  {
    name: 'Demo',
    description:
      'POST /demo/create with the public demo key (nothing is stored), and the log of demo requests.',
  },
  {
    name: 'Reports',
    description: 'Anyone may report a short link that leads somewhere harmful; operators resolve reports.',
  },
  {
    name: 'Audit',
    description: 'The management API: what admins and operators did in the workspace, and when.',
  },
  {
    name: 'Webhooks',
    description: 'The management API: endpoints that hear signed events, and their deliveries.',
  },
  {
    name: 'Conversions',
    description:
      'The management API: leads and sales a tracked link led to, reported by the merchant with the click id (§20).',
  },
  {
    name: 'Shlink compatibility',
    description:
      "Shlink's REST API v3 under /rest, answered by Snip: Shlink's clients work with a Snip key as their API key.",
  },
  {
    name: 'Kutt compatibility',
    description: "Kutt's API v2 under /api/v2, answered by Snip: Kutt's clients work with a Snip key.",
  },
  {
    name: 'YOURLS compatibility',
    description:
      "YOURLS's /yourls-api.php, answered by Snip: a Snip key as the signature, or a Snip email and password.",
  },
  { name: 'QR codes', description: 'A PNG QR code for every short link.' },
  { name: 'Operations', description: 'Liveness and readiness, for load balancers and orchestrators.' },
];

type OpenapiObject = Record<string, unknown> & {
  tags?: Array<{ name: string }>;
  paths?: Record<string, Record<string, { tags?: string[] }>>;
};

/**
 * The order the document lists paths in, by their operations' first tag: the public endpoints, the
 * management API resource by resource, the compatibility APIs, then QR codes and operations. Paths
 * of one tag keep the order their routes were added in; a tag not named here goes last. The order
 * is the document's own, whatever order the features register their routes in.
 */
const PATH_ORDER = [
  'Create',
  'Demo',
  'Links',
  'Stats',
  'Groups',
  'Workspace',
  'Domains',
  'Reports',
  'Audit',
  'Webhooks',
  'Conversions',
  'Members',
  'Shlink compatibility',
  'Kutt compatibility',
  'YOURLS compatibility',
  'QR codes',
  'Operations',
];

type PathItem = Record<string, { tags?: string[] }>;

const sectionOf = (item: PathItem) => {
  const tag = Object.values(item).find((op) => op.tags?.length)?.tags?.[0] ?? '';
  const at = PATH_ORDER.indexOf(tag);
  return at < 0 ? PATH_ORDER.length : at;
};

/** The paths in PATH_ORDER's sections (a stable sort: each section in the order its routes were added). */
export function inPathOrder(paths: Record<string, PathItem>): Record<string, PathItem> {
  const entries = Object.entries(paths).map(([path, item], added) => ({ path, item, added }));
  entries.sort((a, b) => sectionOf(a.item) - sectionOf(b.item) || a.added - b.added);
  return Object.fromEntries(entries.map(({ path, item }) => [path, item]));
}

/** The document without the tags no operation is listed under, its paths in PATH_ORDER. */
export function withUsedTags<T extends OpenapiObject>(document: T): T {
  const used = new Set(
    Object.values(document.paths ?? {}).flatMap((item) => Object.values(item).flatMap((op) => op.tags ?? [])),
  );
  return {
    ...document,
    ...(document.paths ? { paths: inPathOrder(document.paths) } : {}),
    tags: (document.tags ?? []).filter((tag) => used.has(tag.name)),
  };
}

/** The OpenAPI 3.1 frame around the routes' own schemas (which @fastify/swagger collects). */
export function openapiDocument(baseUrl: URL): FastifyDynamicSwaggerOptions['openapi'] {
  const rows = API_ERROR_CODES.map((code) => `| ${code} | ${API_STATUS[code]} | ${API_ERRORS[code]} |`).join(
    '\n',
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Snip API',
      version: '1',
      description:
        'Snip shortens long http(s) URLs. Every /create answer is a JSON envelope whose `error` field ' +
        'carries a code below (`""` on success); the management API under /api/v1 answers plain JSON ' +
        'resources, and its refusals are problem documents whose `code` is one of the same codes.' +
        `\n\n| error | HTTP | meaning |\n|---|---|---|\n${rows}`,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl.href.replace(/\/$/, ''), description: 'This instance (BASE_URL).' }],
    tags: TAGS,
    components: {
      securitySchemes: {
        ApiKeyHeader: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'The API key: POST /create with a JSON body, and /api/v1.',
        },
        BearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The API key as a bearer token (/api/v1).',
        },
        ApiKeyQuery: {
          type: 'apiKey',
          in: 'query',
          name: 'apiKey',
          description: 'The API key in the query (Shlink compatibility: GET /rest/v3/short-urls/shorten).',
        },
        YourlsSignature: {
          type: 'apiKey',
          in: 'query',
          name: 'signature',
          description:
            'The API key as the YOURLS signature (YOURLS compatibility; or `username` + `password` of a Snip account).',
        },
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
    // The dynamic mode with `openapi` set always hands an openapiObject.
    transformObject: (documents) =>
      'openapiObject' in documents
        ? withUsedTags(documents.openapiObject as OpenapiObject)
        : documents.swaggerObject,
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
