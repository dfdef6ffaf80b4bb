import type { Window, WindowCounter } from '../../core/ports/shared-state.ts';
import { MemoryWindowCounter } from '../memory/window-counter.ts';
import type { RedisCircuit } from './circuit.ts';

/**
 * Window counters shared through Redis while it answers, and counted by this instance alone while it
 * does not (docs/api.md §10): Redis is shared state, not a gate. During an outage each instance
 * enforces the whole limit itself, so N instances allow at most N × the limit; what an instance
 * counted meanwhile is not added to Redis afterwards, so nothing is counted twice.
 */
export class FaultTolerantCounter implements WindowCounter {
  readonly #shared: WindowCounter;
  readonly #circuit: RedisCircuit;
  readonly #local = new MemoryWindowCounter();

  constructor(shared: WindowCounter, circuit: RedisCircuit) {
    this.#shared = shared;
    this.#circuit = circuit;
  }

  increment(key: string, window: Window): Promise<number> {
    return this.#circuit.call(
      () => this.#shared.increment(key, window),
      () => this.#local.increment(key, window),
    );
  }

  peek(key: string, window: Window): Promise<number> {
    return this.#circuit.call(
      () => this.#shared.peek(key, window),
      () => this.#local.peek(key, window),
    );
  }

  peekShared(key: string, window: Window): Promise<number> {
    return this.#circuit.strict(() => this.#shared.peek(key, window));
  }

  decrement(key: string, window: Window): Promise<void> {
    return this.#circuit.call(
      () => this.#shared.decrement(key, window),
      () => this.#local.decrement(key, window),
    );
  }
}
