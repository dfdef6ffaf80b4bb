import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../../core/errors.ts';
import { callerOf } from '../../../http/api-auth.ts';
import { refuseOtherMethods } from '../../../http/method-guard.ts';
import { problemResponse, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from '../../../http/openapi-parts.ts';
import { operationDoc } from '../../../http/operation-doc.ts';
import { LIVE_STREAMS_PER_WORKSPACE, type LiveStreams } from '../live/live-streams.ts';

/** GET /api/v1/stats/live (docs/api.md §19, "Live view"): the workspace's clicks as Server-Sent Events. */

/** Seconds a refused client is told to wait: a stream of the workspace may end by then. */
const RETRY_SECONDS = 30;

const doc = operationDoc({
  operationId: 'streamLiveClicks',
  summary: 'Human clicks of the account as they are recorded (Server-Sent Events)',
  description:
    'Each human click recorded with its facts (TRACKING=full, not asked to be left untracked) arrives ' +
    'as `event: click` whose data is a JSON object of exactly `at`, `code`, `domain`, `referrer`, ' +
    '`country`, `device`, `os`, `browser`, `language`, `source`; never an address, user agent or ' +
    'visitor id. Clicks arrive as the buffer is flushed (CLICK_FLUSH_MS). A client too slow to read ' +
    'misses clicks, told by `event: dropped` with `{"clicks": n}`. A comment line every ' +
    'SSE_HEARTBEAT_SECONDS keeps proxies open; the stream ends after SSE_MAX_SECONDS and when the ' +
    `server stops. At most ${LIVE_STREAMS_PER_WORKSPACE} streams per account on each instance: ` +
    'another is refused 429 with Retry-After.',
  tag: 'Stats',
  scope: 'stats:read',
  ok: {
    200: {
      description: 'An event stream.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
  },
});

const LIVE = {
  config: { scope: 'stats:read' },
  schema: {
    ...doc,
    response: {
      ...doc.response,
      429: problemResponse(
        '`429`: the hourly window of the account is spent, this address sent too many missing or ' +
          `wrong keys, or the account holds ${LIVE_STREAMS_PER_WORKSPACE} live streams on this instance.`,
        { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
      ),
    },
  },
} as const;

/** The refusal of a stream past the workspace's allowance. */
export function tooManyStreams(): Refusal {
  return new Refusal(
    '429',
    `This account holds ${LIVE_STREAMS_PER_WORKSPACE} live streams on this instance already.`,
    { retryAfterSeconds: RETRY_SECONDS },
  );
}

export async function liveApiRoute(v1: FastifyInstance, options: { streams: LiveStreams }): Promise<void> {
  const { streams } = options;
  v1.get('/stats/live', LIVE, (request, reply) => {
    const { workspaceId } = callerOf(request).actor;
    if (!streams.admits(workspaceId)) throw tooManyStreams();
    reply.hijack();
    streams.open(reply.raw, workspaceId);
  });
  refuseOtherMethods(v1, '/stats/live', ['GET']);
}
