import { DEMO_LOG_SIZE, type DemoLogEntry } from '../../core/ports/shared-state.ts';
import { DemoLogFeed } from './demo-log-feed.ts';

/** The demo log of one process: the last entries in memory and a feed of new ones. */
export class MemoryDemoLog extends DemoLogFeed {
  readonly #entries: DemoLogEntry[] = [];

  async append(entry: DemoLogEntry): Promise<void> {
    this.#entries.unshift(entry);
    if (this.#entries.length > DEMO_LOG_SIZE) this.#entries.length = DEMO_LOG_SIZE;
    this.emit(entry);
  }

  async recent(): Promise<DemoLogEntry[]> {
    return [...this.#entries];
  }
}
