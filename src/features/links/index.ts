import type { FastifyInstance } from 'fastify';
import { feature } from '../../kernel/feature.ts';
import { lazyCommands, withDeps } from '../../terminal/command.ts';
import type { CreateRouteOptions } from './api/create-route.ts';
import { LINK_FLAGS, LINK_NEGATED, LINK_USAGE } from './cli/link-usage.ts';
import type { LinkServices } from './services.ts';

/**
 * Links, the thing Snip is about: creating one (every check of docs/api.md §2.3, in order) and
 * changing it; POST /create in its envelope and the links of /api/v1; the dashboard's pages; and
 * `snip link …`.
 */
declare module '../../kernel/kernel.ts' {
  interface FeatureServices {
    links: LinkServices;
  }
}

export const linksFeature = feature({
  name: 'links',
  ports: ['links', 'groups', 'secrets', 'clicks', 'keys', 'accounts', 'tags', 'abTests', 'conversions'],
  services: async (kernel, ports) => (await import('./services.ts')).linkServices(kernel, ports),
  http: async () => (await import('./http.ts')).linkHttp,
  cli: {
    flags: LINK_FLAGS,
    negated: LINK_NEGATED,
    commands: lazyCommands(LINK_USAGE, async () =>
      withDeps(
        (await import('./cli/link-commands.ts')).LINK_COMMANDS,
        (await import('./cli/link-deps.ts')).linkCliDeps,
      ),
    ),
  },
});

export { type EnvelopeOptions, type EnvelopeRenderer, envelopeRenderer } from './api/envelope.ts';
export type { LinkResource } from './api/link-schemas.ts';
export type { LinkAddress, LinksApi } from './api/links-api.ts';
export { healthResource, linkResource, linkResources } from './api/resources.ts';
export type { CreateLinkRequest, CreateLinkService, CreateLinkStore } from './create-link.ts';
export type { CreatedLink, CreateLinkAs, LinkDraft, LinkEditor, LinkPatch } from './link-requests.ts';

/** The route of POST /create, for another path with its own keys (the demo's); its code loaded on use. */
export async function createRoute(app: FastifyInstance, options: CreateRouteOptions): Promise<void> {
  return (await import('./api/create-route.ts')).createRoute(app, options);
}
