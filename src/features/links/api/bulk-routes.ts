import type { FastifyInstance } from 'fastify';
import type { BulkLinks } from '../bulk-links.ts';

/** POST|PATCH|DELETE /api/v1/links/bulk (docs/api.md §16), inside the management API's scope. */
export interface BulkRouteOptions {
  bulk: BulkLinks;
}

export async function bulkRoutes(_v1: FastifyInstance, _options: BulkRouteOptions): Promise<void> {}
