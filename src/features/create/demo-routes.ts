import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { anonymizeAddress } from '../../core/anonymize.ts';
import type { CreatedLink } from '../../core/ports/link-creator.ts';
import type { DemoLog, DemoLogEntry } from '../../core/ports/shared-state.ts';
import { refuseOtherMethods } from '../../http/method-guard.ts';
import { problemResponse, RETRY_AFTER_HEADER } from '../../http/openapi-parts.ts';
import { unreadableRequestResponse } from '../../http/openapi-server-errors.ts';
import { answerErrorsAsProblems } from '../../http/problem-errors.ts';
import type { CreateLinkRequest } from './create-link.ts';
import { createRoute } from './create-route.ts';
import { encodingOf, loggedBody, loggedFields } from './demo-log-fields.ts';
import type { EnvelopeRenderer } from './envelope.ts';
import { DemoLogEntrySchema } from './schemas.ts';

export interface DemoRouteOptions {
  createLink: (request: CreateLinkRequest) => Promise<CreatedLink>;
  envelope: EnvelopeRenderer;
  log: DemoLog;
  demoKey: string;
  /** Seconds between SSE heartbeats. */
  heartbeatMs: number;
  now: () => number;
}

/** POST /demo/create (the /create route with the demo's gate and store), its log and live stream. */
export async function demoRoutes(app: FastifyInstance, options: DemoRouteOptions): Promise<void> {
  await app.register(createRoute, {
    path: '/demo/create',
    createLink: options.createLink,
    envelope: options.envelope,
    operation: {
      operationId: 'demoCreateShortLink',
      summary: 'Try /create with the public demo key; nothing is stored',
      tag: 'Demo',
      limitDescription:
        'Demo requests this client address may make in the current window (DEMO_RATE_LIMIT per ' +
        'DEMO_RATE_WINDOW_SECONDS; 30 a minute by default).',
    },
    onAnswered: (request, status, payload) => {
      const entry: DemoLogEntry = {
        time: new Date(options.now()).toISOString(),
        client: anonymizeAddress(request.ip),
        encoding: encodingOf(request),
        fields: loggedFields(request, options.demoKey),
        status,
        body: loggedBody(payload),
      };
      options.log.append(entry).catch((error) => request.log.warn({ err: error }, 'demo log append failed'));
    },
  });

  answerErrorsAsProblems(app);
  refuseOtherMethods(app, '/demo/log', ['GET']);
  refuseOtherMethods(app, '/demo/log/stream', ['GET']);
  app.get(
    '/demo/log',
    {
      schema: {
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
      },
    },
    async () => options.log.recent(),
  );

  // Streams are long-lived: end them when the server closes, or shutdown would wait on them.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of streams) end();
  });

  const streamSchema = {
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
  app.get('/demo/log/stream', { schema: streamSchema }, (request, reply) => {
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
