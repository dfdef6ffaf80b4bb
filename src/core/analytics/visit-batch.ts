import type { ClickNotices } from '../ports/webhook-store.ts';
import type { EventTable } from './event-table.ts';
import type { BotKindCount, ClickEvent, NewVisitors } from './model.ts';

/** What a batch of visits adds beyond the counts: written in the same transaction as them. */
export interface VisitBatch {
  /** The redirect hands over an EventTable (event-table.ts); a list of events does as well. */
  events: readonly ClickEvent[] | EventTable;
  visitors: readonly NewVisitors[];
  bots: readonly BotKindCount[];
  /** The link.clicked events of these visits, for webhooks (docs/api.md §14). */
  notices?: ClickNotices;
}
