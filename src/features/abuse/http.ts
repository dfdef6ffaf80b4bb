import type { FeatureHttp } from '../../kernel/feature.ts';
import { ABUSE_SCHEMAS } from './api/abuse-schemas.ts';
import { auditRoutes } from './api/audit-routes.ts';
import { reportApiRoutes, reportPages } from './api/report-routes.ts';

/** POST /api/v1/reports, the workspace's audit log, and the public report form. */
export const abuseHttp: FeatureHttp<'workspaces'> = {
  schemas: ABUSE_SCHEMAS,
  async api(v1, kernel, ports) {
    const abuse = await kernel.use('abuse');
    const { cursors } = await kernel.use('links');
    await v1.register(reportApiRoutes, { reports: abuse.reports });
    await v1.register(auditRoutes, {
      audit: abuse.audit,
      cursors,
      slugOf: async (id) => (await ports.workspaces.findWorkspaceById(id))?.slug,
    });
  },
  async pages(app, kernel) {
    const { reports } = await kernel.use('abuse');
    const { forms } = await kernel.use('workspaces');
    await app.register(reportPages, { reports, forms, policy: kernel.session.policy });
  },
};
