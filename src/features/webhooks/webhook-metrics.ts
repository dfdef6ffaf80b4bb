import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '../../kernel/metrics.ts';

/** What the webhooks' outbox keeps count of anyway, read when scraped. */
export interface OutboxFigures {
  readonly pending: number;
  readonly dropped: number;
}

/**
 * The webhooks' metrics (docs/api.md §14): attempts by sink and outcome, counted as they end; the
 * outbox's waiting deliveries and the click events dropped past WEBHOOK_OUTBOX_MAX, read when scraped.
 * Returns what the dispatcher calls after each attempt.
 */
export function webhookMetrics(metrics: Metrics, outbox: OutboxFigures) {
  const registers = [metrics.registry];
  const attempts = new Counter({
    name: 'snip_webhook_attempts_total',
    help: 'Delivery attempts by sink (endpoint, stream) and outcome (delivered, failed).',
    labelNames: ['sink', 'outcome'],
    registers,
  });
  new Gauge({
    name: 'snip_webhook_outbox_pending',
    help: 'Deliveries waiting in the outbox, as last counted by this instance.',
    registers,
    collect() {
      this.set(outbox.pending);
    },
  });
  new Counter({
    name: 'snip_webhook_clicks_dropped_total',
    help: 'link.clicked events dropped because the outbox held WEBHOOK_OUTBOX_MAX deliveries.',
    registers,
    collect() {
      this.reset();
      this.inc(outbox.dropped);
    },
  });
  return (sink: 'endpoint' | 'stream', outcome: 'delivered' | 'failed', count = 1) =>
    attempts.inc({ sink, outcome }, count);
}
