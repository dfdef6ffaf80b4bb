import type { FastifyInstance } from 'fastify';
import type { DemoLog } from '../../core/ports/shared-state.ts';
import type { FrameOf } from '../../web/frame.ts';
import { answerErrorsAsPages } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';
import type { CreateLinkService } from './create-link.ts';
import { createRoute } from './create-route.ts';
import { demoRoutes } from './demo-routes.ts';
import { type EnvelopeOptions, envelopeRenderer } from './envelope.ts';
import { landingPage } from './landing-page.ts';
import { ErrorEnvelope, SuccessEnvelope } from './schemas.ts';
import { testerPage } from './tester-page.ts';

/**
 * Creating links through the API: POST /create, the demo (POST /demo/create, its log and stream),
 * the tester page and the landing page that leads to it.
 */
export interface CreateFeatureOptions {
  live: CreateLinkService;
  demo: CreateLinkService;
  /** How the envelope is written (BASE_URL, TIMESTAMP_TZ, HTTP_STATUS_MODE). */
  envelope: Omit<EnvelopeOptions, 'onOutcome'>;
  /** Told of every answer's `error` by endpoint ("" on success), e.g. for metrics. */
  onOutcome: (endpoint: string, error: string) => void;
  demoLog: DemoLog;
  demoKey: string;
  heartbeatMs: number;
  now: () => number;
  frameOf: FrameOf;
}

export const CREATE_ASSETS: Readonly<Record<string, URL>> = {
  'tester.js': new URL('./assets/tester.js', import.meta.url),
  'landing.js': new URL('./assets/landing.js', import.meta.url),
  'landing.css': new URL('./assets/landing.css', import.meta.url),
  'tester.css': new URL('./assets/tester.css', import.meta.url),
};

/** Shared schemas, added on the root instance so /openapi.json lists them as components. */
export const CREATE_SCHEMAS = [SuccessEnvelope, ErrorEnvelope];

export async function createFeature(app: FastifyInstance, options: CreateFeatureOptions): Promise<void> {
  // Each endpoint counts its outcomes under its own name.
  const envelopeFor = (endpoint: string) =>
    envelopeRenderer({ ...options.envelope, onOutcome: (error) => options.onOutcome(endpoint, error) });
  const origin = options.envelope.baseUrl.href.replace(/\/$/, '');
  await app.register(createRoute, {
    path: '/create',
    createLink: options.live.withKey,
    envelope: envelopeFor('/create'),
    operation: {
      operationId: 'createShortLink',
      summary: 'Create a short link',
      tag: 'Create',
      limitDescription: "Requests the account's keys may make in this clock hour (UTC), all together.",
    },
  });
  await app.register(demoRoutes, {
    createLink: options.demo.withKey,
    envelope: envelopeFor('/demo/create'),
    log: options.demoLog,
    demoKey: options.demoKey,
    heartbeatMs: options.heartbeatMs,
    now: options.now,
  });

  await app.register(async (pages) => {
    answerErrorsAsPages(pages);
    // Pages, not API: they stay out of /openapi.json.
    pages.get('/', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, 200, landingPage(options.demoKey, origin, await options.frameOf(request))),
    );
    pages.get('/tester', { schema: { hide: true } }, async (request, reply) =>
      sendPage(reply, 200, testerPage(options.demoKey, await options.frameOf(request))),
    );
  });
}
