/**
 * State that every instance must see alike: window counters, the demo log and link changes. One
 * process keeps it in memory (adapters/memory); several share it through Redis (adapters/redis).
 */

/** A fixed window of time (core/rate-window.ts draws them). */
export interface Window {
  /** Epoch ms at which the window started; together with a key it names the counter. */
  start: number;
  end: number;
}

/** Counters per key and fixed window: the rate limits and the failed-key limiter count here. */
export interface WindowCounter {
  /** Adds one to the key's counter for this window and returns the new count. */
  increment(key: string, window: Window): Promise<number>;
  /** The key's count for this window, without adding. */
  peek(key: string, window: Window): Promise<number>;
  /** Takes back one an attempt added and did not spend (a right password); never below zero. */
  decrement(key: string, window: Window): Promise<void>;
  /**
   * The count every instance shares, for showing it: UnavailableError while the shared store cannot
   * be read, where `peek` would give this instance's own count. Absent: `peek` is shared already.
   */
  peekShared?(key: string, window: Window): Promise<number>;
}

/**
 * Tells every instance that a short code's link changed (created, edited, deleted), so each drops it
 * from its hot-link cache. In one process there is nobody else to tell.
 */
export interface LinkEvents {
  changed(code: string): Promise<void>;
  /**
   * Adds a handler (each one added runs: the link cache, the domains, the abuse screen) for changes
   * announced by any instance, this one included.
   */
  onChanged(handler: (code: string) => void): void;
  /**
   * Adds a handler that runs when announcements may have been missed: the subscription was lost and
   * is back. Whatever was cached before may be stale.
   */
  onMissed(handler: () => void): void;
  close(): Promise<void>;
}

/** One demo request as the public log shows it (docs/api.md §3): nothing in it identifies a person or a key. */
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

/** The last entries, newest first, and a feed of new ones. */
export interface DemoLog {
  append(entry: DemoLogEntry): Promise<void>;
  recent(): Promise<DemoLogEntry[]>;
  /** Calls the listener for every entry appended from now on; returns the unsubscribe function. */
  subscribe(listener: (entry: DemoLogEntry) => void): () => void;
  close(): Promise<void>;
}
