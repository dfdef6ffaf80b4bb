import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import {
  type InWorkspace,
  type WorkspaceDeps,
  workspaceFrame,
  workspacePage,
} from '../../../web/session/workspace-pages.ts';
import type { StatsReport, VisitStats } from '../visit-stats.ts';
import { statsCsv, statsFileName } from './stats-csv.ts';
import { statsPage } from './stats-page.ts';

/**
 * Visit stats behind the session: /w/<slug>/stats (the workspace) and /w/<slug>/links/<code>/stats
 * (one link), each also as `.csv` for the same range. A range that cannot be read is a 400 page
 * that shows the default range with the reason; the CSV of one is a 400 page alone.
 */

export interface StatsRouteOptions extends WorkspaceDeps {
  stats: VisitStats;
  /** The domain `?domain=` names for the workspace (317 for one it does not see). */
  domainOf: (workspaceId: number, host: string | undefined) => number;
}

type CodeParams = { Params: { code: string } };

function notFound(reply: FastifyReply, user: InWorkspace) {
  const error = { code: 'not-found', message: 'No link of this account has that address.' };
  return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: workspaceFrame(user) }));
}

function sendCsv(reply: FastifyReply, user: InWorkspace, report: StatsReport, what: string) {
  if (report.refused) {
    const error = { code: 'range-invalid', message: `That range cannot be read: ${report.refused.reason}.` };
    return sendPage(reply, 400, messagePage({ title: 'Bad range', error, frame: workspaceFrame(user) }));
  }
  const answer: StatsAnswer = report.answer;
  return reply
    .code(200)
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="${statsFileName(what, answer)}"`)
    .type('text/csv; charset=utf-8')
    .send(statsCsv(answer));
}

export async function statsRoutes(app: FastifyInstance, options: StatsRouteOptions): Promise<void> {
  const { stats } = options;
  const status = (report: StatsReport) => (report.refused ? 400 : 200);

  app.get(
    '/w/:workspace/stats',
    workspacePage(options, 'stats:read', async (request, reply, user) => {
      const report = await stats.ofAccount(user.workspace, request.query);
      return sendPage(reply, status(report), statsPage({ frame: workspaceFrame(user), report }));
    }),
  );

  app.get(
    '/w/:workspace/stats.csv',
    workspacePage(options, 'stats:read', async (request, reply, user) =>
      sendCsv(reply, user, await stats.ofAccount(user.workspace, request.query), 'account'),
    ),
  );

  /** The stats of the link the address names, or its 404 page answered (undefined). */
  const ofLink = async (request: FastifyRequest, reply: FastifyReply, user: InWorkspace) => {
    const { code } = request.params as CodeParams['Params'];
    const host = (request.query as { domain?: unknown }).domain;
    let domainId = DEFAULT_DOMAIN_ID;
    try {
      if (typeof host === 'string' && host !== '') domainId = options.domainOf(user.workspace.id, host);
    } catch {
      notFound(reply, user);
      return undefined;
    }
    const found = await stats.ofLink(user.workspace, domainId, code, request.query);
    if (!found) notFound(reply, user);
    // Its pages keep naming the link's domain (`?domain=`), off the default one.
    return found && { ...found, domain: domainId === DEFAULT_DOMAIN_ID ? undefined : String(host) };
  };

  app.get<CodeParams>(
    '/w/:workspace/links/:code/stats',
    workspacePage(options, 'stats:read', async (request, reply, user) => {
      const found = await ofLink(request, reply, user);
      if (!found) return reply;
      const view = {
        frame: workspaceFrame(user),
        report: found.report,
        link: found.link,
        domain: found.domain,
      };
      return sendPage(reply, status(found.report), statsPage(view));
    }),
  );

  app.get<CodeParams>(
    '/w/:workspace/links/:code/stats.csv',
    workspacePage(options, 'stats:read', async (request, reply, user) => {
      const found = await ofLink(request, reply, user);
      if (!found) return reply;
      return sendCsv(reply, user, found.report, found.link.code);
    }),
  );
}
