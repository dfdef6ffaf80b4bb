import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import type { ClickStore } from '../../../core/ports/store.ts';
import { domainQuery, type LinkOrigins } from '../../../core/short-url.ts';
import { workspacePath } from '../../../web/frame.ts';
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
import type { TopLink } from './stats-tables.ts';

/**
 * Visit stats behind the session: /w/<slug>/stats (the workspace) and /w/<slug>/links/<code>/stats
 * (one link), each also as `.csv` for the same range. A range that cannot be read is a 400 page
 * that shows the default range with the reason; the CSV of one is a 400 page alone.
 */

export interface StatsRouteOptions extends WorkspaceDeps {
  stats: VisitStats;
  /** The domain `?domain=` names for the workspace (317 for one it does not see). */
  domainOf: (workspaceId: number, host: string | undefined) => number;
  /** Each domain's host: a link's short URL, the `?domain=` of a top link's page. */
  origins: LinkOrigins;
  /** The workspace's most clicked links of a range; without it the page shows none. */
  clicks: Pick<ClickStore, 'topLinksOfWorkspace'>;
}

/** How many of the most clicked links the workspace's page lists. */
export const TOP_LINKS = 10;

/** The most clicked links over the days the range touches, each with its page's address. */
async function topLinks(options: StatsRouteOptions, user: InWorkspace, report: StatsReport) {
  const { clicks, origins } = options;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const { from, to } = report.range;
  const top = await clicks.topLinksOfWorkspace(user.workspace.id, day(from), day(to - 1), TOP_LINKS);
  const base = workspacePath(user.workspace.slug);
  return top.map(
    (link): TopLink => ({
      code: link.code,
      label: link.title || link.code,
      path: `${base}/links/${link.code}${domainQuery(origins, link)}`,
      clicks: link.clicks,
    }),
  );
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
      const report = await stats.ofWorkspace(user.workspace, request.query);
      const top = await topLinks(options, user, report);
      return sendPage(reply, status(report), statsPage({ frame: workspaceFrame(user), report, top }));
    }),
  );

  app.get(
    '/w/:workspace/stats.csv',
    workspacePage(options, 'stats:read', async (request, reply, user) =>
      sendCsv(reply, user, await stats.ofWorkspace(user.workspace, request.query), 'account'),
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
        host: options.origins.hostOf(found.link.domainId),
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
