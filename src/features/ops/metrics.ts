import type { FastifyInstance } from 'fastify';
import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '../../kernel/metrics.ts';

/** Figures other parts already keep (flushed clicks, cache hits) are read when scraped, not counted twice. */
/** What the redirect keeps count of anyway, read when scraped. */
export interface RuntimeFigures {
  clicks: {
    readonly flushed: number;
    readonly pendingLinks: number;
    readonly pendingVisits: number;
    readonly droppedVisits: number;
  };
  cache: { readonly hits: number; readonly misses: number; readonly size: number };
}

export function observeRuntime(metrics: Metrics, { clicks, cache }: RuntimeFigures): void {
  const registers = [metrics.registry];
  new Counter({
    name: 'snip_clicks_flushed_total',
    help: 'Human clicks written to the store.',
    registers,
    collect() {
      this.reset();
      this.inc(clicks.flushed);
    },
  });
  new Gauge({
    name: 'snip_clicks_pending_links',
    help: 'Links whose buffered clicks are not yet written (buffered, or in a flush under way).',
    registers,
    collect() {
      this.set(clicks.pendingLinks);
    },
  });
  new Gauge({
    name: 'snip_visits_pending',
    help: 'Click details (TRACKING=full) buffered and not yet written.',
    registers,
    collect() {
      this.set(clicks.pendingVisits);
    },
  });
  new Counter({
    name: 'snip_visits_dropped_total',
    help: 'Click details given up while the visitor sets could not answer (the clicks were counted).',
    registers,
    collect() {
      this.reset();
      this.inc(clicks.droppedVisits);
    },
  });
  new Gauge({
    name: 'snip_link_cache_hit_ratio',
    help: 'Share of redirect look-ups answered from the hot-link cache.',
    registers,
    collect() {
      const total = cache.hits + cache.misses;
      this.set(total === 0 ? 0 : cache.hits / total);
    },
  });
  new Gauge({
    name: 'snip_link_cache_entries',
    help: 'Links held in the hot-link cache.',
    registers,
    collect() {
      this.set(cache.size);
    },
  });
}

/** Counts every answer by route pattern (never the raw URL, so codes do not become labels). */
export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    metrics.requests.inc({
      route: request.routeOptions.url ?? 'unknown',
      method: request.method,
      status: reply.statusCode,
    });
  });
}
