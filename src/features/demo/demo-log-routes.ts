import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { clientKey } from '../../core/client-key.ts';
import type { DemoLog } from '../../core/ports/shared-state.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { problemResponse, RETRY_AFTER_HEADER } from '../../http/openapi-parts.ts';
import { unreadableRequestResponse } from '../../http/openapi-server-errors.ts';
import { sendProblem } from '../../http/problem.ts';
import { answerErrorsAsProblems } from '../../http/problem-errors.ts';

/** GET /demo/log (the last 200 demo requests) and GET /demo/log/stream (new ones as Server-Sent Events). */

export const DemoLogEntrySchema = Type.Object(
  {
    time: Type.String({ format: 'date-time' }),
    client: Type.String({ description: 'The client network: IPv4 /24 or IPv6 /48.' }),
    encoding: Type.Union([
      Type.Literal('json'),
      Type.Literal('form'),
      Type.Literal('multipart'),
      Type.Literal('other'),
    ]),
    fields: Type.Record(Type.String(), Type.String(), {
      description: 'Fields as sent; keys other than the demo key redacted.',
    }),
    status: Type.Integer(),
    body: Type.Record(Type.String(), Type.Unknown(), { description: 'The envelope answered.' }),
  },
  { additionalProperties: false },
);

export interface DemoLogRouteOptions {
  log: DemoLog;
  /** Seconds between SSE heartbeats. */
  heartbeatMs: number;
  /** Streams open at once on this instance, in all and per address (an IPv6 /64). */
  streams: StreamLimits;
}

export interface StreamLimits {
  total: number;
  perAddress: number;
  /** A stream is ended after this long; the browser's EventSource comes back by itself. */
  maxMs: number;
}

/**
 * The streams of one instance's demo log (docs/adr/025): a long-lived connection each, so an address
 * may hold a few and all of them together a part of MAX_CONNECTIONS, the rest kept for other work;
 * each ends after a while, so a held connection has to come back and be counted again.
 */
export function streamLimits(maxConnections: number, maxSeconds: number): StreamLimits {
  return { total: Math.max(1, Math.floor(maxConnections / 4)), perAddress: 2, maxMs: maxSeconds * 1000 };
}

const LIST_SCHEMA = {
  operationId: 'listDemoLog',
  summary: 'The last 200 demo requests, newest first',
  tags: ['Demo'],
  security: [],
  response: {
    200: { ...Type.Array(DemoLogEntrySchema), description: 'The entries, newest first.' },
    '4xx': unreadableRequestResponse(),
    500: problemResponse('`500`: an unexpected fault of the server.'),
    503: problemResponse('`503`: the shared demo log (Redis) did not answer.', RETRY_AFTER_HEADER),
  },
};

const STREAM_SCHEMA = {
  operationId: 'streamDemoLog',
  summary: 'New demo requests as Server-Sent Events',
  tags: ['Demo'],
  security: [],
  description:
    'Each new entry arrives as `event: entry` with the entry as JSON data; a comment line every 15 s keeps the stream open.',
  response: {
    200: {
      description: 'An event stream.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    '4xx': unreadableRequestResponse(),
    429: problemResponse(
      '`429`: this address, or everyone together, holds as many streams as this instance allows.',
      RETRY_AFTER_HEADER,
    ),
  },
};

export function demoLogRoutes(app: FastifyInstance, options: DemoLogRouteOptions): void {
  answerErrorsAsProblems(app);
  refuseOtherMethods(app, '/demo/log', ['GET']);
  refuseOtherMethods(app, '/demo/log/stream', ['GET']);
  app.get('/demo/log', { schema: LIST_SCHEMA }, async () => options.log.recent());

  // Streams are long-lived: end them when the server closes, or shutdown would wait on them.
  const streams = new Set<() => void>();
  const perAddress = new Map<string, number>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });
  const { streams: limits } = options;
  app.get('/demo/log/stream', { schema: STREAM_SCHEMA }, (request, reply) => {
    const address = clientKey(request.ip);
    const held = perAddress.get(address) ?? 0;
    if (streams.size >= limits.total || held >= limits.perAddress) {
      reply.header('retry-after', '30');
      const detail = 'This address, or everyone together, holds as many demo log streams as allowed.';
      return sendProblem(reply, { status: 429, title: 'Too Many Requests', detail, code: '429' });
    }
    perAddress.set(address, held + 1);
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    out.write('retry: 3000\n\n');
    const unsubscribe = options.log.subscribe((entry) => {
      out.write(`event: entry\ndata: ${JSON.stringify(entry)}\n\n`);
    });
    const heartbeat = setInterval(() => out.write(': heartbeat\n\n'), options.heartbeatMs);
    const lifetime = setTimeout(() => end(), limits.maxMs);
    let counted = true;
    const cleanup = () => {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      unsubscribe();
      streams.delete(end);
      if (!counted) return;
      counted = false;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left > 0) perAddress.set(address, left);
      else perAddress.delete(address);
    };
    const end = () => {
      cleanup();
      out.end();
    };
    streams.add(end);
    request.raw.once('close', cleanup);
    out.once('close', cleanup);
    out.once('error', cleanup);
  });
}
