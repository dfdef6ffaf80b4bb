import type { ConversionStore } from '../../core/ports/conversion-store.ts';

/** Pending rows one fold transaction takes at most. */
const FOLD_LIMIT = 1000;

export interface FigureFoldsDeps {
  store: Pick<ConversionStore, 'foldConversions'>;
  onError: (error: unknown) => void;
}

/**
 * Adds recorded leads and sales to their figures (docs/adr/045), one fold at a time per process: a
 * lead or sale answered meanwhile waits for the next fold, which takes every row pending by then, so
 * concurrent sales of a hot link share one transaction on its rows. A failed fold is logged and its
 * rows stay pending for the next one (the next sale's, or the timer's): the answer does not fail,
 * since the sale itself is committed.
 */
export class FigureFolds {
  readonly #deps: FigureFoldsDeps;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(deps: FigureFoldsDeps) {
    this.#deps = deps;
  }

  /** Resolves once a fold that started after this call has ended (successfully or not). */
  fold(): Promise<void> {
    if (this.#running === undefined) {
      this.#running = this.#run().finally(() => {
        this.#running = undefined;
      });
      return this.#running;
    }
    // The running fold may have read the pending rows before ours was committed: join the next.
    this.#next ??= this.#running.then(() => {
      this.#next = undefined;
      return this.fold();
    });
    return this.#next;
  }

  async #run(): Promise<void> {
    try {
      while ((await this.#deps.store.foldConversions(FOLD_LIMIT)) === FOLD_LIMIT);
    } catch (error) {
      this.#deps.onError(error);
    }
  }
}
