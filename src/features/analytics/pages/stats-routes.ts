import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StatsAnswer } from '../../../core/analytics/stats.ts';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import { frameOf, signedInPage } from '../../../web/session/handlers.ts';
import type { SessionDeps, SignedIn } from '../../../web/session/session-cookie.ts';
import type { StatsReport, VisitStats } from '../visit-stats.ts';
import { statsCsv, statsFileName } from './stats-csv.ts';
import { statsPage } from './stats-page.ts';

/**
 * Visit stats behind the session: /dashboard/stats (the account) and /dashboard/links/<code>/stats
 * (one link), each also as `.csv` for the same range. A range that cannot be read is a 400 page
 * that shows the default range with the reason; the CSV of one is a 400 page alone.
 */

export interface StatsRouteOptions extends SessionDeps {
  stats: VisitStats;
}

type CodeParams = { Params: { code: string } };

function notFound(reply: FastifyReply, user: SignedIn) {
  const error = { code: 'not-found', message: 'No link of this account has that address.' };
  return sendPage(reply, 404, messagePage({ title: 'Not found', error, frame: frameOf(user) }));
}

function sendCsv(reply: FastifyReply, user: SignedIn, report: StatsReport, what: string) {
  if (report.refused) {
    const error = { code: 'range-invalid', message: `That range cannot be read: ${report.refused.reason}.` };
    return sendPage(reply, 400, messagePage({ title: 'Bad range', error, frame: frameOf(user) }));
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
    '/dashboard/stats',
    signedInPage(options, async (request, reply, user) => {
      const report = await stats.ofAccount(user.account, request.query);
      return sendPage(reply, status(report), statsPage({ frame: frameOf(user), report }));
    }),
  );

  app.get(
    '/dashboard/stats.csv',
    signedInPage(options, async (request, reply, user) =>
      sendCsv(reply, user, await stats.ofAccount(user.account, request.query), 'account'),
    ),
  );

  /** The stats of the link the address names, or its 404 page answered (undefined). */
  const ofLink = async (request: FastifyRequest, reply: FastifyReply, user: SignedIn) => {
    const { code } = request.params as CodeParams['Params'];
    const found = await stats.ofLink(user.account, code, request.query);
    if (!found) notFound(reply, user);
    return found;
  };

  app.get<CodeParams>(
    '/dashboard/links/:code/stats',
    signedInPage(options, async (request, reply, user) => {
      const found = await ofLink(request, reply, user);
      if (!found) return reply;
      const view = { frame: frameOf(user), report: found.report, link: found.link };
      return sendPage(reply, status(found.report), statsPage(view));
    }),
  );

  app.get<CodeParams>(
    '/dashboard/links/:code/stats.csv',
    signedInPage(options, async (request, reply, user) => {
      const found = await ofLink(request, reply, user);
      if (!found) return reply;
      return sendCsv(reply, user, found.report, found.link.code);
    }),
  );
}
