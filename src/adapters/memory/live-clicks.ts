import type { LiveClick, LiveClicks } from '../../core/ports/live-clicks.ts';

type Listener = (clicks: readonly LiveClick[]) => void;

/** The live clicks of one process: the listeners of each workspace on this instance. */
export class LocalLiveClicks implements LiveClicks {
  readonly #listeners = new Map<number, Set<Listener>>();

  publish(workspaceId: number, clicks: readonly LiveClick[]): void {
    this.tell(workspaceId, clicks);
  }

  heard(workspaceId: number): boolean {
    return this.#listeners.has(workspaceId);
  }

  get anyHeard(): boolean {
    return this.#listeners.size > 0;
  }

  /** The workspaces listened to on this instance. */
  protected get listened(): Iterable<number> {
    return this.#listeners.keys();
  }

  listen(workspaceId: number, listener: Listener): () => void {
    let set = this.#listeners.get(workspaceId);
    if (!set) {
      set = new Set();
      this.#listeners.set(workspaceId, set);
      this.firstListener(workspaceId);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.#listeners.get(workspaceId) === set) this.#listeners.delete(workspaceId);
    };
  }

  /** A workspace gained its first listener here (another instance may want to know). */
  protected firstListener(_workspaceId: number): void {}

  /** Hands clicks to this instance's listeners; one that throws does not stop the others. */
  protected tell(workspaceId: number, clicks: readonly LiveClick[]): void {
    for (const listener of this.#listeners.get(workspaceId) ?? []) {
      try {
        listener(clicks);
      } catch {
        // A stream that cannot take a write is ended by its own close handler.
      }
    }
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }
}
