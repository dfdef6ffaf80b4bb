import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { Inspector } from '../core/ports/inspector.ts';
import type { Store } from '../core/ports/store.ts';

/** Prometheus metrics of one app (docs/api.md §4): each app has its own registry, so tests can build many. */
export function createMetrics() {
  const registry = new Registry();
  // The event loop's delay sampled every 100 ms, not prom-client's 10: an idle server wakes 10 times a
  // second for it rather than 100 (docs/adr/051); a stall longer than that is still seen.
  collectDefaultMetrics({ register: registry, prefix: 'snip_', eventLoopMonitoringPrecision: 100 });
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

/** A worker's metrics under `snip serve --processes N` (src/cluster/worker-seat.ts, docs/adr/052). */
export interface WorkerMetrics {
  /** Labels the registry's series `worker="k"` and hands them to the primary when it asks. */
  share(registry: Registry): void;
  /** Every worker's series in one Prometheus text, gathered by the primary. */
  scrape(): Promise<string>;
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
