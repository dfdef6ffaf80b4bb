import type { WebhookStore } from '../../core/ports/webhook-store.ts';

/**
 * Who hears clicks, as this process knows it: the workspaces with an enabled endpoint subscribed to
 * link.clicked (or every one, with the operator's stream on). A click's event is made only for
 * them, so a redirect of a workspace nobody listens to costs nothing more. Read again whenever the
 * store's webhook version moves (every endpoint change, on any instance), polled about each second.
 */
export class Subscribers {
  readonly #store: Pick<WebhookStore, 'webhookVersion' | 'clickSubscribers'>;
  readonly stream: boolean;
  #clicks: ReadonlySet<number> = new Set();
  #version = -1;
  #reading: Promise<void> | undefined;

  constructor(store: Pick<WebhookStore, 'webhookVersion' | 'clickSubscribers'>, stream: boolean) {
    this.#store = store;
    this.stream = stream;
  }

  /** Reads the version, and the subscribers when it moved; concurrent calls share one read. */
  refresh(): Promise<void> {
    this.#reading ??= this.#read().finally(() => {
      this.#reading = undefined;
    });
    return this.#reading;
  }

  async #read(): Promise<void> {
    const version = await this.#store.webhookVersion();
    if (version === this.#version) return;
    this.#clicks = new Set(await this.#store.clickSubscribers());
    this.#version = version;
  }

  /**
   * An endpoint was ever made or changed (the version moved from its first 0), or the stream is on:
   * there may be something to deliver.
   */
  get mayDeliver(): boolean {
    return this.stream || this.#version > 0;
  }

  hearsClicks(workspaceId: number): boolean {
    return this.stream || this.#clicks.has(workspaceId);
  }

  /** Anyone hears any click: without, the flush makes no click events at all. */
  get anyClicks(): boolean {
    return this.stream || this.#clicks.size > 0;
  }
}
