import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DemoLog } from '../../core/ports/shared-state.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { problemResponse, RETRY_AFTER_HEADER } from '../../http/openapi-parts.ts';
import { unreadableRequestResponse } from '../../http/openapi-server-errors.ts';
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
  },
};

export function demoLogRoutes(app: FastifyInstance, options: DemoLogRouteOptions): void {
  answerErrorsAsProblems(app);
  refuseOtherMethods(app, '/demo/log', ['GET']);
  refuseOtherMethods(app, '/demo/log/stream', ['GET']);
  app.get('/demo/log', { schema: LIST_SCHEMA }, async () => options.log.recent());

  // Streams are long-lived: end them when the server closes, or shutdown would wait on them.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });
  app.get('/demo/log/stream', { schema: STREAM_SCHEMA }, (request, reply) => {
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
    const cleanup = () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(end);
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
