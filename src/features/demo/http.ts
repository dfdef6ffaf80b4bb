import type { FastifyInstance } from 'fastify';
import { DEFAULT_DOMAIN_ID } from '../../core/link-key.ts';
import type { DemoLog } from '../../core/ports/shared-state.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import type { FrameOf } from '../../web/frame.ts';
import { pageScope } from '../../web/page-errors.ts';
import { sendPage } from '../../web/send-page.ts';
import { type CreateLinkService, type EnvelopeOptions, envelopeRenderer } from '../links/index.ts';
import { streamLimits } from './demo-log-routes.ts';
import { demoRoutes } from './demo-routes.ts';
import { landingPage } from './pages/landing-page.ts';
import { testerPage } from './pages/tester-page.ts';

/**
 * The public demo (ADR 008): POST /demo/create (/create with the demo key; nothing stored), its log
 * and live stream, the landing page and the tester that lead to it.
 */
interface DemoFeatureOptions {
  /** The create service behind the demo's own key gate and store. */
  demo: CreateLinkService;
  /** How the envelope is written (BASE_URL, TIMESTAMP_TZ, HTTP_STATUS_MODE). */
  envelope: Omit<EnvelopeOptions, 'onOutcome'>;
  /** Told of every answer's `error` ("" on success), e.g. for metrics. */
  onOutcome: (error: string) => void;
  demoLog: DemoLog;
  demoKey: string;
  heartbeatMs: number;
  /** MAX_CONNECTIONS: the log's streams may hold a part of them, the rest kept for other work. */
  maxConnections: number;
  /** SSE_MAX_SECONDS: how long one stream lasts. */
  streamSeconds: number;
  now: () => number;
  frameOf: FrameOf;
  /**
   * What `GET /` is on the domain a Host header names (docs/api.md §12): the landing page (the
   * default domain), a redirect set for the domain, or nothing (404: other domains, unknown hosts).
   */
  rootOf: (host: string | undefined) => 'landing' | 'none' | { redirect: string };
}

const DEMO_ASSETS: Readonly<Record<string, URL>> = {
  'demo-input.js': new URL('./assets/demo-input.js', import.meta.url),
  'tester.js': new URL('./assets/tester.js', import.meta.url),
  'landing.js': new URL('./assets/landing.js', import.meta.url),
  'landing.css': new URL('./assets/landing.css', import.meta.url),
  'tester.css': new URL('./assets/tester.css', import.meta.url),
};

async function demoFeature(app: FastifyInstance, options: DemoFeatureOptions): Promise<void> {
  const origin = options.envelope.origins.origin(DEFAULT_DOMAIN_ID);
  await app.register(demoRoutes, {
    createLink: options.demo.withKey,
    envelope: envelopeRenderer({ ...options.envelope, onOutcome: options.onOutcome }),
    log: options.demoLog,
    demoKey: options.demoKey,
    heartbeatMs: options.heartbeatMs,
    streams: streamLimits(options.maxConnections, options.streamSeconds),
    now: options.now,
  });

  await app.register(async (pages) => {
    pageScope(pages);
    pages.get('/', async (request, reply) => {
      const root = options.rootOf(request.headers.host);
      if (root === 'none') return reply.callNotFound();
      if (root !== 'landing') {
        return reply.code(302).header('location', root.redirect).header('cache-control', 'no-store').send();
      }
      return sendPage(reply, 200, landingPage(options.demoKey, origin, await options.frameOf(request)));
    });
    pages.get('/tester', async (request, reply) =>
      sendPage(reply, 200, testerPage(options.demoKey, await options.frameOf(request))),
    );
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    demoLog: DemoLog;
  }
}

/** What `/` of a host answers: its domain's root redirect, the landing page on the default domain, else nothing. */
function rootOfHost(
  served: (host: string | undefined) => { id: number; rootRedirect: string | null } | undefined,
) {
  return (host: string | undefined): { redirect: string } | 'landing' | 'none' => {
    const domain = served(host);
    if (domain?.rootRedirect) return { redirect: domain.rootRedirect };
    return domain?.id === DEFAULT_DOMAIN_ID ? 'landing' : 'none';
  };
}

/** POST /demo/create, its log and stream, the landing page and the tester; the demo's files. */
export const demoHttp: FeatureHttp = {
  assets: DEMO_ASSETS,
  async routes(app, kernel) {
    const { demo } = await kernel.use('demo');
    const domains = await kernel.use('domains');
    const { config } = kernel;
    app.decorate('demoLog', kernel.demoLog);
    await app.register(demoFeature, {
      demo,
      envelope: { ...config, origins: domains.registry, now: kernel.now },
      onOutcome: (error) => kernel.metrics.createOutcomes.inc({ endpoint: '/demo/create', error }),
      demoLog: kernel.demoLog,
      demoKey: config.demoApiKey,
      heartbeatMs: config.sseHeartbeatSeconds * 1000,
      maxConnections: config.maxConnections,
      streamSeconds: config.sseMaxSeconds,
      now: kernel.now,
      frameOf: kernel.frameOf,
      rootOf: rootOfHost((host) => domains.registry.served(host)),
    });
  },
};
