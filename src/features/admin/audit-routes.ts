import type { FastifyInstance } from 'fastify';
import { here } from '../../web/frame.ts';
import { html } from '../../web/html.ts';
import { page } from '../../web/layout.ts';
import { sendPage } from '../../web/send-page.ts';
import { frameOf } from '../../web/session/handlers.ts';
import { workspaceFrame, workspacePage } from '../../web/session/workspace-pages.ts';
import { type AdminPageOptions, workspaceSlugs } from './admin-deps.ts';
import { consolePage } from './admin-nav.ts';
import { auditPageOf, auditPager, auditTable } from './audit-page.ts';
import type { Section } from './section.ts';

/** /admin/audit, every entry of the log, and /w/<slug>/audit, one workspace's (docs/api.md §13). */

const PATH = '/admin/audit';

/** The audit section of the console: read only. */
export function auditSection(options: AdminPageOptions): Section {
  const { audit } = options.abuse;
  return {
    path: PATH,
    keep: [],
    async render(user, fields, error) {
      const shown = await auditPageOf(audit, fields);
      const slugs = await workspaceSlugs(
        options.store,
        shown.entries.map((entry) => entry.workspaceId),
      );
      return consolePage({
        title: 'Audit log',
        path: PATH,
        frame: frameOf(user),
        error,
        body: html`<section class="card" aria-labelledby="audit-heading">
<h2 id="audit-heading">Every operator and workspace admin action <span class="hint">newest first</span></h2>
${auditTable(shown.entries, slugs)}
${auditPager(PATH, shown)}
</section>`,
      });
    },
  };
}

/** /w/<slug>/audit: the workspace's entries, for the roles that may `audit:read` (owners and admins). */
export function workspaceAuditRoute(app: FastifyInstance, options: AdminPageOptions): void {
  app.get(
    '/w/:workspace/audit',
    workspacePage(options, 'audit:read', async (request, reply, inside) => {
      const frame = workspaceFrame(inside);
      const path = here(frame, '/audit');
      const shown = await auditPageOf(options.abuse.audit, request.query, inside.workspace.id);
      return sendPage(
        reply,
        200,
        page({
          title: 'Audit log',
          current: path,
          frame,
          styles: ['dashboard.css'],
          body: html`<h1>Audit log of ${inside.workspace.name}</h1>
<section class="card" aria-labelledby="audit-heading">
<h2 id="audit-heading">Admin actions in this workspace <span class="hint">newest first</span></h2>
<p class="hint">Members, roles, keys, domains, settings, and what an operator did here.</p>
${auditTable(shown.entries)}
${auditPager(path, shown)}
</section>`,
        }),
      );
    }),
  );
}
