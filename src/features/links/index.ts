/**
 * Links, the thing Snip is about: creating one (every check of docs/api.md §2.3, in order) and
 * changing it; POST /create in its envelope and the links of /api/v1; the dashboard's pages; and
 * `snip link …`, with `link import` from other shorteners.
 */
export { bulkRoutes } from './api/bulk-routes.ts';
export { createEndpoint } from './api/create-endpoint.ts';
export { createRoute } from './api/create-route.ts';
export { CREATE_SCHEMAS } from './api/create-schemas.ts';
export { pageCursors } from './api/cursor.ts';
export { type EnvelopeOptions, type EnvelopeRenderer, envelopeRenderer } from './api/envelope.ts';
export { linkRoutes } from './api/link-routes.ts';
export type { LinkResource } from './api/link-schemas.ts';
export { LINK_SCHEMAS } from './api/link-schemas.ts';
export { type LinkAddress, type LinksApi, type LinksApiDeps, linksApi } from './api/links-api.ts';
export { linkResource, linkResources } from './api/resources.ts';
export { type BulkItem, type BulkLinks, type BulkLinksDeps, bulkLinks } from './bulk-links.ts';
export { LINK_COMMANDS, LINK_FLAGS, LINK_NEGATED, type LinkCliDeps } from './cli/link-commands.ts';
export {
  type CreateLinkRequest,
  type CreateLinkService,
  type CreateLinkStore,
  createLinkService,
} from './create-link.ts';
export { linkEditor } from './edit-link.ts';
export { InFlight } from './in-flight.ts';
export type { CreatedLink, CreateLinkAs, LinkDraft, LinkEditor, LinkPatch } from './link-requests.ts';
export { dashboardService } from './pages/dashboard.ts';
export { linkPages } from './pages/link-pages.ts';
