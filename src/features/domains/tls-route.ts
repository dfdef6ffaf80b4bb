import type { FastifyInstance } from 'fastify';
import type { DomainsService } from './domains.ts';

/**
 * GET /.well-known/snip/tls-allowed?domain=<host> (docs/api.md §12): a proxy with on-demand TLS
 * (deploy/Caddyfile's `ask`) gets a certificate only for a host Snip serves: 200 for BASE_URL's
 * host and every verified domain, 404 for anything else.
 */
export async function tlsAllowedRoute(
  app: FastifyInstance,
  options: { domains: DomainsService },
): Promise<void> {
  app.get<{ Querystring: { domain?: unknown } }>(
    '/.well-known/snip/tls-allowed',
    { schema: { hide: true } },
    async (request, reply) => {
      const allowed = await options.domains.tlsAllowed(request.query.domain);
      return reply
        .code(allowed ? 200 : 404)
        .header('cache-control', 'no-store')
        .send({ allowed });
    },
  );
}
