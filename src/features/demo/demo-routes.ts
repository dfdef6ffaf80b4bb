import type { FastifyInstance } from 'fastify';
import { anonymizeAddress } from '../../core/anonymize.ts';
import type { DemoLog, DemoLogEntry } from '../../core/ports/shared-state.ts';
import {
  type CreatedLink,
  type CreateLinkRequest,
  createRoute,
  type EnvelopeRenderer,
} from '../links/index.ts';
import { encodingOf, loggedBody, loggedFields } from './demo-log-fields.ts';
import { demoLogRoutes, type StreamLimits } from './demo-log-routes.ts';

export interface DemoRouteOptions {
  createLink: (request: CreateLinkRequest) => Promise<CreatedLink>;
  envelope: EnvelopeRenderer;
  log: DemoLog;
  demoKey: string;
  /** Seconds between SSE heartbeats. */
  heartbeatMs: number;
  streams: StreamLimits;
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

  demoLogRoutes(app, options);
}
