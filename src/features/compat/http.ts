import packageJson from '../../../package.json' with { type: 'json' };
import { joinPorts, type Ports } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import type { Kernel } from '../../kernel/kernel.ts';
import { type CompatDeps, passwordKeysOf } from './compat-deps.ts';
import { kuttRoutes } from './kutt/kutt-routes.ts';
import { shlinkRoutes } from './shlink/shlink-routes.ts';
import { yourlsRoutes } from './yourls/yourls-routes.ts';

/** The store's ports the compatibility APIs read and change through. */
type CompatPorts =
  | 'links'
  | 'groups'
  | 'tags'
  | 'stats'
  | 'visitLists'
  | 'accounts'
  | 'workspaces'
  | 'upkeep';

/** What the compatibility APIs answer with (docs/api.md §15): Snip's keys, links, tags, visits and domains. */
async function compatDeps(kernel: Kernel, ports: Pick<Ports, CompatPorts>): Promise<CompatDeps> {
  const { config } = kernel;
  const store = joinPorts(ports);
  const workspaces = await kernel.use('workspaces');
  const domains = await kernel.use('domains');
  const { api } = await kernel.use('links');
  const personalOf = async (userId: number) =>
    (await store.workspacesOf(userId)).find(({ workspace }) => workspace.personalOf === userId)?.workspace.id;
  return {
    keys: workspaces.keys,
    passwordKeys: passwordKeysOf(workspaces.auth.signIn, personalOf, workspaces.workspaceKeys),
    links: api,
    store,
    origins: domains.registry,
    domainOf: domains.addressed,
    domainChoices: domains.choices,
    redirectsOf: (host) => {
      const served = domains.registry.served(host);
      return { root: served?.rootRedirect ?? null, notFound: served?.notFoundRedirect ?? null };
    },
    now: kernel.now,
    baseUrl: config.baseUrl,
    version: packageJson.version,
    retentionDays: config.analyticsRetentionDays,
  };
}

/** Shlink's REST API v3 under /rest, Kutt's API v2 under /api/v2, YOURLS at /yourls-api.php. */
export const compatHttp: FeatureHttp<CompatPorts> = {
  async routes(app, kernel, ports) {
    const deps = await compatDeps(kernel, ports);
    await app.register(async (rest) => shlinkRoutes(rest, deps), { prefix: '/rest' });
    await app.register(async (v2) => kuttRoutes(v2, deps), { prefix: '/api/v2' });
    await app.register(async (root) => yourlsRoutes(root, deps));
  },
};
