import type { LinkEvents } from '../../core/ports/shared-state.ts';

/** Link changes within one process: the only cache to tell is this process's own. */
export class LocalLinkEvents implements LinkEvents {
  readonly #handlers: Array<(code: string) => void> = [];

  async changed(code: string): Promise<void> {
    for (const handler of this.#handlers) handler(code);
  }

  onChanged(handler: (code: string) => void): void {
    this.#handlers.push(handler);
  }

  /** Nothing is ever missed within one process. */
  onMissed(): void {}

  async close(): Promise<void> {}
}
