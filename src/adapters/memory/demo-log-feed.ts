import type { DemoLog, DemoLogEntry } from '../../core/ports/shared-state.ts';

/** What every demo log keeps alike, wherever its entries live: the local listeners of new entries. */
export abstract class DemoLogFeed implements DemoLog {
  readonly #listeners = new Set<(entry: DemoLogEntry) => void>();

  abstract append(entry: DemoLogEntry): Promise<void>;
  abstract recent(): Promise<DemoLogEntry[]>;

  subscribe(listener: (entry: DemoLogEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  /** Hands a new entry to this instance's listeners. */
  protected emit(entry: DemoLogEntry): void {
    for (const listener of this.#listeners) listener(entry);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
