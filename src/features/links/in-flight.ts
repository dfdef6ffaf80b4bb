// biome-ignore lint/suspicious/noExplicitAny: any function's arguments
type AsyncFunction = (...args: any[]) => Promise<unknown>;

/**
 * Work that must finish before the process lets go of its store and Redis: on shutdown the server
 * stops accepting and its sockets close, but a create whose client went away is still running.
 */
export class InFlight {
  readonly #running = new Set<Promise<unknown>>();

  /** The same function, each call tracked until it settles. */
  track<F extends AsyncFunction>(work: F): F {
    return ((...args: Parameters<F>) => {
      const running = work(...args);
      this.#running.add(running);
      const forget = () => this.#running.delete(running);
      running.then(forget, forget);
      return running;
    }) as F;
  }

  /** The same service, every method tracked. */
  trackAll<S extends Record<string, AsyncFunction>>(service: S): S {
    return Object.fromEntries(
      Object.entries(service).map(([name, method]) => [name, this.track(method)]),
    ) as S;
  }

  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
