import type { Registry } from 'prom-client';

/**
 * /metrics under `snip serve --processes N` (docs/adr/052): every worker's own series, each labelled
 * `worker="k"` by its slot, joined by the primary into one answer with its own two series (workers
 * running, replacements by slot). prom-client is loaded at the first scrape: the primary stays light.
 */
export function primaryMetrics(processes: number, running: () => number) {
  const restarts = new Map<number, number>();
  for (let slot = 1; slot <= processes; slot++) restarts.set(slot, 0);
  let registry: Promise<Registry> | undefined;

  const build = async (): Promise<Registry> => {
    const { Counter, Gauge, Registry } = await import('prom-client');
    const own = new Registry();
    new Counter({
      name: 'snip_worker_restarts_total',
      help: 'Workers replaced after they exited unasked, by slot.',
      labelNames: ['worker'],
      registers: [own],
      collect() {
        this.reset();
        for (const [slot, count] of restarts) this.inc({ worker: String(slot) }, count);
      },
    });
    new Gauge({
      name: 'snip_workers',
      help: 'Worker processes running.',
      registers: [own],
      collect() {
        this.set(running());
      },
    });
    return own;
  };

  return {
    restarted(slot: number): void {
      restarts.set(slot, (restarts.get(slot) ?? 0) + 1);
    },
    /**
     * One Prometheus text of the workers' series (those that answered) and the primary's. The
     * series are merged by name; with distinct `worker` labels no two are added together.
     */
    async gather(series: Promise<Array<unknown[] | undefined>>): Promise<string> {
      registry ??= build();
      const [{ AggregatorRegistry }, own] = await Promise.all([import('prom-client'), registry]);
      const answered = (await series).filter((one) => one !== undefined);
      const merged = AggregatorRegistry.aggregate([
        ...(answered as Parameters<typeof AggregatorRegistry.aggregate>[0]),
        await own.getMetricsAsJSON(),
      ]);
      return merged.metrics();
    },
  };
}
