import type { LiveClicks } from '../../core/ports/live-clicks.ts';
import { joinPorts } from '../../core/ports/store.ts';
import type { FeatureHttp } from '../../kernel/feature.ts';
import { liveApiRoute } from './api/live-route.ts';
import { statsApiRoutes } from './api/stats-routes.ts';
import { STATS_SCHEMAS } from './api/stats-schemas.ts';
import type { ClickBuffer } from './collect/click-buffer.ts';
import { statsPages } from './pages/stats-pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Buffered click counts; tests and shutdown flush them. */
    clicks: ClickBuffer;
    /** Deletes raw click events past the retention; tests sweep at once. */
    retention: { sweep(): Promise<number> };
    /** Clicks as they are recorded, to live listeners (tests wait on what another instance heard). */
    liveClicks: LiveClicks;
  }
}

/** The stats of /api/v1 and the stats pages with their CSV. */
export const analyticsHttp: FeatureHttp<
  'links' | 'stats' | 'clicks' | 'groups' | 'workspaces' | 'abuse' | 'conversions'
> = {
  schemas: STATS_SCHEMAS,
  async routes(app, kernel) {
    const { clicks, sweep, live } = await kernel.use('analytics');
    app.decorate('clicks', clicks);
    app.decorate('retention', { sweep: sweep.sweep });
    app.decorate('liveClicks', live.clicks);
    // Long-lived streams would hold the server's close up: they end first.
    app.addHook('preClose', async () => live.streams.endAll());
  },
  async api(v1, kernel, ports) {
    const domains = await kernel.use('domains');
    await v1.register(statsApiRoutes, {
      store: joinPorts(ports),
      now: kernel.now,
      retentionDays: kernel.config.analyticsRetentionDays,
      domainOf: domains.addressed,
    });
    await v1.register(liveApiRoute, { streams: (await kernel.use('analytics')).live.streams });
  },
  async pages(app, kernel, ports) {
    const { stats, live } = await kernel.use('analytics');
    const domains = await kernel.use('domains');
    await app.register(statsPages, {
      ...kernel.session,
      stats,
      domainOf: domains.addressed,
      origins: domains.registry,
      clicks: ports.clicks,
      streams: live.streams,
    });
  },
};
