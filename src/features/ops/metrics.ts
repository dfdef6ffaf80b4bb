import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { Store } from '../../core/ports/store.ts';

/** Prometheus metrics of one app (docs/api.md §4): each app has its own registry, so tests can build many. */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'snip_' });
  const registers = [registry];
  return {
    registry,
    requests: new Counter({
      name: 'snip_http_requests_total',
      help: 'HTTP requests by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    createOutcomes: new Counter({
      name: 'snip_create_outcomes_total',
      help: 'Answers of /create and /demo/create by endpoint and error code ("" for success).',
      labelNames: ['endpoint', 'error'],
      registers,
    }),
    redirects: new Counter({
      name: 'snip_redirects_total',
      help: 'Redirects answered, by kind: human clicks and bot hits.',
      labelNames: ['kind'],
      registers,
    }),
    inspection: new Histogram({
      name: 'snip_inspection_duration_seconds',
      help: 'Target inspection time by outcome.',
      labelNames: ['outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5],
      registers,
    }),
    store: new Histogram({
      name: 'snip_store_duration_seconds',
      help: 'Store call time by operation.',
      labelNames: ['operation'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5],
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

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

/** The counters every redirect moves, their labels resolved once: they run on the hot path. */
export function redirectCounters(metrics: Metrics, status: number) {
  const byKind = { human: metrics.redirects.labels('human'), bot: metrics.redirects.labels('bot') };
  const labels = (answered: number) => ({
    GET: metrics.requests.labels('/:code', 'GET', String(answered)),
    HEAD: metrics.requests.labels('/:code', 'HEAD', String(answered)),
  });
  const redirected = labels(status);
  // A code on a host no links are served on is answered 404 there too.
  const missed = labels(404);
  return {
    redirected: (kind: 'human' | 'bot') => byKind[kind].inc(),
    /** A request the hot path answered: the router's request counter never sees it. */
    answeredBelowRouter: (method: string, answered: number) =>
      (answered === 404 ? missed : redirected)[method as 'GET' | 'HEAD'].inc(),
  };
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

export function timedInspector(inner: Inspector, metrics: Metrics): Inspector {
  return {
    async inspect(url) {
      const end = metrics.inspection.startTimer();
      const outcome = await inner.inspect(url);
      end({ outcome: outcome.ok ? 'ok' : outcome.code });
      return outcome;
    },
    close: () => inner.close(),
  };
}

/** The same store, each async method timed under its own name. */
export function timedStore(store: Store, metrics: Metrics): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      return (...args: unknown[]) => {
        const end = metrics.store.startTimer({ operation: property });
        const result = value.apply(target, args);
        if (result instanceof Promise) return result.finally(() => end());
        end();
        return result;
      };
    },
  });
}
