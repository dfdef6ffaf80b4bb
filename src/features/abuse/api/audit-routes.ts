import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerOf } from '../../../http/api-auth.ts';
import { apiRoute } from '../../../http/management-api.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { okResponse } from '../../../http/operation-doc.ts';
import { auditJson } from '../abuse-json.ts';
import type { AuditLog } from '../audit-log.ts';
import { AuditPageSchema, AuditQuery } from './abuse-schemas.ts';

/** Signs a page's position for one workspace; a cursor Snip did not issue is 300 (the links' cursors). */
export interface AuditCursors {
  issue(workspaceId: number, position: { value: number; id: number }): string;
  read(workspaceId: number, cursor: string): { value: number; id: number };
}

export interface AuditRouteOptions {
  audit: AuditLog;
  cursors: AuditCursors;
  /** The workspace's slug, for each entry. */
  slugOf: (workspaceId: number) => Promise<string | undefined>;
}

const LIST = {
  ...apiRoute(
    {
      tag: 'Audit',
      scope: 'audit:read',
      operationId: 'listAudit',
      summary: 'The audit log',
      description:
        'What the workspace’s admins and the operators did in it (members, roles, keys, domains, settings, ' +
        'takedowns), newest first, with who, when, and before/after; never a secret.',
    },
    { ok: { 200: okResponse(AuditPageSchema, 'One page of entries.') } },
  ),
};

/** GET /api/v1/audit (docs/api.md §13), inside the management API's scope. */
export async function auditRoutes(app: FastifyInstance, options: AuditRouteOptions): Promise<void> {
  app.get<{ Querystring: Static<typeof AuditQuery> }>(
    '/audit',
    { ...LIST, schema: { ...LIST.schema, querystring: AuditQuery } },
    async (request) => {
      const { workspaceId } = callerOf(request).actor;
      const limit = request.query.limit ?? 50;
      const before = request.query.cursor
        ? options.cursors.read(workspaceId, request.query.cursor).id
        : undefined;
      const entries = await options.audit.list({ workspaceId: workspaceId, before, limit: limit + 1 });
      const page = entries.slice(0, limit);
      const slug = (await options.slugOf(workspaceId)) ?? null;
      const last = page.at(-1);
      return {
        items: page.map((entry) => auditJson(entry, slug)),
        next_cursor:
          entries.length > limit && last
            ? options.cursors.issue(workspaceId, { value: last.id, id: last.id })
            : null,
      };
    },
  );
  refuseOtherMethods(app, '/audit', ['GET']);
}
