import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { keyNeed, shlinkCaller } from './shlink-auth.ts';
import { mercureNotConfigured, notSupported } from './shlink-problems.ts';
import { NEVER_OK, okJson, RedirectsSchema, shlinkSchema } from './shlink-schemas.ts';

/**
 * Shlink's domains (the hosts the workspace's links may go on, its default first), its health
 * check and its Mercure hub, of which Snip has none. A domain's not-found redirects are set in
 * Snip's own API and dashboard: Shlink's form of them shows none and changes none.
 */

/**
 * The Shlink release whose API v3 this answers (its OpenAPI and sources were read at it). Shlink's
 * clients switch features on and off by the version health reports, so it is this one; Snip's own
 * version follows as `snipVersion`.
 */
export const SHLINK_VERSION = '5.1.5';

/** A domain's redirects as Shlink names them: an unknown code and any other 404 go to the same place on Snip. */
function redirectsOf(deps: CompatDeps, host: string) {
  const { root, notFound } = deps.redirectsOf(host);
  return { baseUrlRedirect: root, regular404Redirect: notFound, invalidShortUrlRedirect: notFound };
}

const LIST = shlinkSchema({
  operationId: 'shlinkListDomains',
  summary: 'List domains (Shlink)',
  description:
    'The hosts new links of the workspace may go on; `isDefault` marks the one they go on unless told.',
  key: 'header',
  ok: {
    200: okJson(
      Type.Object({
        domains: Type.Object({
          data: Type.Array(
            Type.Object({ domain: Type.String(), isDefault: Type.Boolean(), redirects: RedirectsSchema }),
          ),
          defaultRedirects: RedirectsSchema,
        }),
      }),
      "The domains with where each sends `/` and unknown codes (null: Snip's own pages).",
    ),
  },
});

const REDIRECTS = shlinkSchema({
  operationId: 'shlinkSetDomainRedirects',
  summary: "Set a domain's redirects (Shlink)",
  description: "Refused with 501: a domain's redirects are set with Snip's own API or dashboard.",
  key: 'header',
  ok: NEVER_OK,
  problems: [501],
});

const MERCURE = shlinkSchema({
  operationId: 'shlinkMercureInfo',
  summary: 'Mercure hub (Shlink)',
  description: "Shlink's answer when no Mercure hub is configured: Snip has none.",
  key: 'header',
  ok: NEVER_OK,
  problems: [501],
});

const health = (operationId: string) =>
  shlinkSchema({
    operationId,
    summary: 'Health (Shlink)',
    description:
      "Whether Snip reaches its store. `version` is the Shlink release whose API Snip answers (clients read their features from it); `snipVersion` is Snip's.",
    key: 'none',
    // A query or header Snip cannot read at all (a NUL character) is refused before any route.
    problems: [400],
    ok: {
      200: {
        description: 'Passing.',
        content: {
          'application/health+json': {
            schema: Type.Object({
              status: Type.Literal('pass'),
              version: Type.String(),
              links: Type.Object({}),
            }),
          },
        },
      },
    },
  });

export function domainRoutes(app: FastifyInstance, deps: CompatDeps): void {
  app.get('/v3/domains', { config: keyNeed({ scope: undefined }), schema: LIST }, async (request) => {
    const { workspaceId } = shlinkCaller(request).actor;
    const { hosts, chosen } = deps.domainChoices(workspaceId);
    const data = [chosen, ...hosts.filter((host) => host !== chosen)].map((domain) => ({
      domain,
      isDefault: domain === chosen,
      redirects: redirectsOf(deps, domain),
    }));
    return { domains: { data, defaultRedirects: redirectsOf(deps, deps.origins.hostOf(DEFAULT_DOMAIN_ID)) } };
  });

  app.patch(
    '/v3/domains/redirects',
    { config: keyNeed({ scope: undefined }), schema: REDIRECTS },
    async () => {
      throw notSupported(
        "A domain's redirects are set with Snip's own API (/api/v1/domains) or its dashboard.",
      );
    },
  );

  app.get('/v3/mercure-info', { config: keyNeed({ scope: undefined }), schema: MERCURE }, async () => {
    throw mercureNotConfigured();
  });

  const about = { about: deps.baseUrl.href, project: new URL('/docs', deps.baseUrl).href };
  for (const [url, operationId] of [
    ['/health', 'shlinkHealth'],
    ['/v3/health', 'shlinkHealthV3'],
  ] as const) {
    app.get(
      url,
      { config: keyNeed({ scope: undefined, keyless: true }), schema: health(operationId) },
      async (_, reply) => {
        const pass = await deps.store.ping().then(
          () => true,
          () => false,
        );
        return reply
          .code(pass ? 200 : 503)
          .type('application/health+json')
          .send({
            status: pass ? 'pass' : 'fail',
            version: SHLINK_VERSION,
            links: about,
            snipVersion: deps.version,
          });
      },
    );
  }
}
