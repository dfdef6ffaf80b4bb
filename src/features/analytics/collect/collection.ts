import type { Tracking } from '../../../core/analytics/model.ts';
import type { CountryLookup } from '../../../core/ports/geo.ts';
import type { ClickStore, StatsStore } from '../../../core/ports/store.ts';
import type { Visitors } from '../../../core/ports/visitors.ts';
import { ClickBuffer, type ClickBufferOptions } from './click-buffer.ts';
import { retentionSweep } from './retention.ts';
import { visitBatchMaker } from './visit-events.ts';
import { type VisitPolicy, visitRecorder } from './visit-recorder.ts';

/**
 * What a process collects of visits (docs/api.md §9.2), built once: the click buffer and its
 * flushes, what each redirect records into it (TRACKING, DNT, excluded networks), and the hourly
 * sweep of raw events past the retention.
 */
export interface CollectionOptions extends Omit<VisitPolicy, 'tracking'> {
  store: ClickStore & Pick<StatsStore, 'purgeEvents'>;
  tracking: Tracking;
  flushMs: number;
  retentionDays: number;
  /** The day's unique-visitor sets; used with TRACKING=full only. */
  visitors: Visitors;
  countries: CountryLookup;
  onFlushError: (error: unknown) => void;
  onSweepError: (error: unknown) => void;
  /** The link.clicked events of recorded visits (features/webhooks), written with them. */
  notices?: ClickBufferOptions['notices'];
}

export function visitCollection(options: CollectionOptions) {
  const { store, now } = options;
  const clicks = new ClickBuffer(store, {
    intervalMs: options.flushMs,
    now,
    onError: options.onFlushError,
    makeVisits:
      options.tracking === 'full'
        ? visitBatchMaker({ visitors: options.visitors, countries: options.countries })
        : undefined,
    notices: options.notices,
  });
  const record = visitRecorder(clicks, options);
  // Raw events age out; the per-day aggregates stay (docs/api.md §9.2).
  const sweep = retentionSweep(store, {
    retentionDays: options.retentionDays,
    now,
    onError: options.onSweepError,
  });
  return { clicks, record, sweep };
}
