import type { FastifyInstance } from 'fastify';
import type { CompatDeps } from './compat-deps.ts';
import { kuttRoutes } from './kutt/kutt-routes.ts';
import { shlinkRoutes } from './shlink/shlink-routes.ts';
import { yourlsRoutes } from './yourls/yourls-routes.ts';

/**
 * The APIs of other shorteners, answered by Snip (docs/api.md §15): Shlink's REST API v3 under
 * /rest, Kutt's API v2 under /api/v2, YOURLS at /yourls-api.php. Their clients work unchanged with
 * a Snip key in place of theirs; each refusal comes back in the original's own error form.
 */
export { type CompatDeps, passwordKeysOf } from './compat-deps.ts';

export async function compatFeature(app: FastifyInstance, deps: CompatDeps): Promise<void> {
  await app.register(async (rest) => shlinkRoutes(rest, deps), { prefix: '/rest' });
  await app.register(async (v2) => kuttRoutes(v2, deps), { prefix: '/api/v2' });
  await app.register(async (root) => yourlsRoutes(root, deps));
}
