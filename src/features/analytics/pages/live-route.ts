import type { FastifyInstance } from 'fastify';
import { messagePage } from '../../../web/message-page.ts';
import { sendPage } from '../../../web/send-page.ts';
import { type WorkspaceDeps, workspaceFrame, workspacePage } from '../../../web/session/workspace-pages.ts';
import { LIVE_STREAMS_PER_WORKSPACE, type LiveStreams } from '../live/live-streams.ts';

/**
 * GET /w/<slug>/stats/live: the stats page's live panel's stream, behind the session (an
 * EventSource cannot send an API key), the same stream and the same allowance as
 * /api/v1/stats/live.
 */
export async function liveRoute(
  app: FastifyInstance,
  options: WorkspaceDeps & { streams: LiveStreams },
): Promise<void> {
  const { streams } = options;
  app.get(
    '/w/:workspace/stats/live',
    workspacePage(options, 'stats:read', async (_request, reply, user) => {
      const workspaceId = user.workspace.id;
      if (!streams.admits(workspaceId)) {
        const error = {
          code: 'throttled',
          message: `This workspace holds ${LIVE_STREAMS_PER_WORKSPACE} live views already; close one first.`,
        };
        reply.header('retry-after', '30');
        return sendPage(
          reply,
          429,
          messagePage({ title: 'Too many live views', error, frame: workspaceFrame(user) }),
        );
      }
      reply.hijack();
      streams.open(reply.raw, workspaceId);
      return reply;
    }),
  );
}
