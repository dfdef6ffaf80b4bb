/**
 * Work that must finish before the process lets go of its store and Redis: on shutdown the server
 * stops accepting and its sockets close, but a create whose client went away is still running.
 */
export class InFlight {
  readonly #running = new Set<Promise<unknown>>();

  /** The same function, each call tracked until it settles. */
  track<A, R>(work: (arg: A) => Promise<R>): (arg: A) => Promise<R> {
    return (arg) => {
      const running = work(arg);
      this.#running.add(running);
      const forget = () => this.#running.delete(running);
      running.then(forget, forget);
      return running;
    };
  }

  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }
}
