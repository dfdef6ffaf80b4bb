/** One demo request as the public log shows it (SPEC.md 3): nothing in it identifies a person or a key. */
export interface DemoLogEntry {
  /** ISO 8601 time of the answer. */
  time: string;
  /** IPv4 /24 or IPv6 /48 of the client. */
  client: string;
  encoding: 'json' | 'form' | 'multipart' | 'other';
  /** Fields as sent; any key but the demo key replaced by "[redacted]". */
  fields: Record<string, string>;
  status: number;
  /** The response envelope. */
  body: Record<string, unknown>;
}

export const DEMO_LOG_SIZE = 200;

/** The last entries, newest first, and a feed of new ones. Redis shares it across instances later. */
export interface DemoLog {
  append(entry: DemoLogEntry): Promise<void>;
  recent(): Promise<DemoLogEntry[]>;
  /** Calls the listener for every entry appended from now on; returns the unsubscribe function. */
  subscribe(listener: (entry: DemoLogEntry) => void): () => void;
  close(): Promise<void>;
}

/** The local listeners of new entries: what every DemoLog keeps alike, whatever feeds it. */
export class EntryListeners {
  readonly #listeners = new Set<(entry: DemoLogEntry) => void>();

  add(listener: (entry: DemoLogEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(entry: DemoLogEntry): void {
    for (const listener of this.#listeners) listener(entry);
  }

  get size(): number {
    return this.#listeners.size;
  }

  clear(): void {
    this.#listeners.clear();
  }
}

export class MemoryDemoLog implements DemoLog {
  readonly #entries: DemoLogEntry[] = [];
  readonly #listeners = new EntryListeners();

  async append(entry: DemoLogEntry): Promise<void> {
    this.#entries.unshift(entry);
    if (this.#entries.length > DEMO_LOG_SIZE) this.#entries.length = DEMO_LOG_SIZE;
    this.#listeners.emit(entry);
  }

  async recent(): Promise<DemoLogEntry[]> {
    return [...this.#entries];
  }

  subscribe(listener: (entry: DemoLogEntry) => void): () => void {
    return this.#listeners.add(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
