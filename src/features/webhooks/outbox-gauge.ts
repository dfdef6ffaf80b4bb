/**
 * The outbox's bound (WEBHOOK_OUTBOX_MAX, docs/api.md §14): deliveries waiting, as last counted by
 * the dispatcher, plus the click events admitted since. Past the bound a click event is dropped and
 * counted; change events are never refused.
 */
export class OutboxGauge {
  readonly max: number;
  #counted = 0;
  #admitted = 0;
  dropped = 0;

  constructor(max: number) {
    this.max = max;
  }

  /** The store's count of waiting deliveries, read now. */
  counted(pending: number): void {
    this.#counted = pending;
    this.#admitted = 0;
  }

  get pending(): number {
    return this.#counted + this.#admitted;
  }

  /** Room for one more click event: true and counted, or false and dropped. */
  admit(): boolean {
    if (this.pending >= this.max) {
      this.dropped++;
      return false;
    }
    this.#admitted++;
    return true;
  }
}
