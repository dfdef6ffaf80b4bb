import { Counter, Gauge } from 'prom-client';
import type { Metrics } from '../../kernel/metrics.ts';

/** What the checks keep count of anyway, read when scraped. */
export interface CheckFigures {
  /** Checks waiting for their host's turn or under way. */
  queued(): number;
  /** Seconds the longest-waiting due link has waited past its time, as of the latest poll. */
  oldestDueSeconds(): number;
}

/**
 * Link health's metrics (docs/api.md §21): checks by outcome (ok, a refusal's code, skipped,
 * failed), counted as they end; the queue and the oldest unchecked link, read when scraped.
 */
export function healthMetrics(metrics: Metrics, figures: CheckFigures) {
  const registers = [metrics.registry];
  const checks = new Counter({
    name: 'snip_link_checks_total',
    help: 'Link health checks by outcome: ok, the code a create would get (306-311, 316), skipped, failed.',
    labelNames: ['outcome'],
    registers,
  });
  new Gauge({
    name: 'snip_link_check_queue',
    help: 'Link checks waiting for their target host’s turn or under way on this instance.',
    registers,
    collect() {
      this.set(figures.queued());
    },
  });
  new Gauge({
    name: 'snip_link_check_oldest_due_seconds',
    help: 'How long the longest-waiting due link has waited past its check time, as of the latest poll.',
    registers,
    collect() {
      this.set(figures.oldestDueSeconds());
    },
  });
  return (outcome: string) => checks.inc({ outcome });
}
