import type { LinkEvents } from '../../core/ports/shared-state.ts';

/** Link changes within one process: the only cache to tell is this process's own. */
export class LocalLinkEvents implements LinkEvents {
  #handler: (code: string) => void = () => {};

  async changed(code: string): Promise<void> {
    this.#handler(code);
  }

  onChanged(handler: (code: string) => void): void {
    this.#handler = handler;
  }

  /** Nothing is ever missed within one process. */
  onMissed(): void {}

  async close(): Promise<void> {}
}
