import cluster from 'node:cluster';
import type { Registry } from 'prom-client';
import { isSnipMessage, SCRAPE_WAIT_MS, type SnipMessage, WORKER_SLOT_VARIABLE } from './messages.ts';

/**
 * A worker's side of `snip serve --processes N` (docs/adr/052): its slot, its series shared with the
 * primary, and how it ends. The server itself is the one `snip serve` runs alone.
 */
export interface WorkerSeat {
  /** 1..N, kept by a replacement: the `worker` label of this process's series. */
  readonly slot: number;
  /** Labels this process's series with its slot and answers the primary's asks for them. */
  share(registry: Registry): void;
  /** Every worker's series, gathered by the primary; this worker's own if the primary does not answer. */
  scrape(): Promise<string>;
  /** Calls `stop` when the primary is gone without a word (killed): the worker stops as on SIGTERM. */
  onOrphaned(stop: () => void): void;
  /** Once stopped: closes the channel to the primary, so the process ends as a single one does. */
  leave(): void;
}

function send(message: SnipMessage): void {
  // A channel closed meanwhile (the primary is going) is not an error of this process.
  if (process.connected) process.send?.(message, undefined, {}, () => {});
}

/** The seat of this worker process, whose slot the primary put in its environment. */
export function takeSeat(): WorkerSeat {
  const slot = Number(process.env[WORKER_SLOT_VARIABLE] ?? '1');
  let registry: Registry | undefined;
  let next = 0;
  const waiting = new Map<number, (text: string | undefined) => void>();
  // node:cluster ends a worker at once (exit 0) when its channel closes unasked, which would drop
  // the clicks it holds; marked as asked, the worker stops gracefully instead (onOrphaned).
  if (cluster.worker) cluster.worker.exitedAfterDisconnect = true;
  process.on('message', (message: unknown) => {
    if (!isSnipMessage(message)) return;
    if (message.snip === 'series' && !('series' in message) && registry) {
      const { id } = message;
      void registry.getMetricsAsJSON().then(
        (series) => send({ snip: 'series', id, series }),
        () => send({ snip: 'series', id, series: [] }),
      );
    } else if (message.snip === 'scraped') {
      waiting.get(message.id)?.(message.text);
    }
  });
  return {
    slot,
    share(shared) {
      shared.setDefaultLabels({ worker: String(slot) });
      registry = shared;
    },
    async scrape() {
      const own = registry;
      if (!own) return '';
      const id = next++;
      let timer: NodeJS.Timeout | undefined;
      const text = await new Promise<string | undefined>((resolve) => {
        waiting.set(id, resolve);
        timer = setTimeout(() => resolve(undefined), SCRAPE_WAIT_MS * 2);
        send({ snip: 'scrape', id });
      });
      clearTimeout(timer);
      waiting.delete(id);
      return text ?? own.metrics();
    },
    onOrphaned(stop) {
      process.once('disconnect', stop);
    },
    leave() {
      if (process.connected) process.disconnect();
    },
  };
}
