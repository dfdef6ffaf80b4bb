import type { Answer, EventName, Listener, Payload } from './events.ts';

/**
 * The in-process event bus: a feature emits what happened by name, and the features that care
 * listen, so no wiring file threads one feature's callback into another. Listeners run in the order
 * they were added; one that throws is reported and the others still run. Across instances changes
 * travel on LinkEvents (Redis), not here.
 */
export class EventBus {
  readonly #listeners = new Map<EventName, Array<Listener<EventName>>>();
  readonly #onError: (event: EventName, error: unknown) => void;

  constructor(onError: (event: EventName, error: unknown) => void) {
    this.#onError = onError;
  }

  /** Adds a listener; returns what removes it. */
  on<E extends EventName>(event: E, listener: Listener<E>): () => void {
    const list = this.#listeners.get(event) ?? [];
    list.push(listener as unknown as Listener<EventName>);
    this.#listeners.set(event, list);
    return () => {
      const at = list.indexOf(listener as unknown as Listener<EventName>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** Whether anyone listens: an emitter may skip preparing what nobody would read. */
  heard(event: EventName): boolean {
    return (this.#listeners.get(event)?.length ?? 0) > 0;
  }

  /** Tells every listener at once and waits for none. */
  emit<E extends EventName>(event: E, payload: Payload<E>): void {
    for (const listener of this.#listeners.get(event) ?? []) {
      try {
        const answer = listener(payload) as unknown;
        if (answer instanceof Promise) answer.catch((error: unknown) => this.#onError(event, error));
      } catch (error) {
        this.#onError(event, error);
      }
    }
  }

  /** Asks every listener and gathers their answers, in order; a failing listener fails the ask. */
  async ask<E extends EventName>(event: E, payload: Payload<E>): Promise<Array<Answer<E>>> {
    const answers: Array<Answer<E>> = [];
    for (const listener of this.#listeners.get(event) ?? []) {
      answers.push((await listener(payload)) as Answer<E>);
    }
    return answers;
  }
}
