/**
 * Human clicks as they are recorded, handed to whoever watches a workspace live (docs/api.md §19,
 * "Live view"). A click here carries the facts of §9.1 and its link's code and domain, nothing else:
 * no address, no user agent, no visitor id, no link id.
 */
export interface LiveClick {
  /** RFC 3339, UTC. */
  at: string;
  code: string;
  /** The link's domain's host. */
  domain: string;
  referrer: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  language: string;
  source: string;
}

/**
 * The clicks of each workspace, told to listeners on this instance and, with REDIS_URL, on every
 * instance. Listeners are told in batches (one per flush part); a listener must not block.
 */
export interface LiveClicks {
  /** Tells the workspace's listeners here and elsewhere; never waits, never throws. */
  publish(workspaceId: number, clicks: readonly LiveClick[]): void;
  /** Whether a listener of the workspace is known, here or on another instance: else nothing is made. */
  heard(workspaceId: number): boolean;
  /** Whether any listener is known at all: a flush without one costs one call. */
  readonly anyHeard: boolean;
  /** Adds a listener of one workspace's clicks; returns what removes it. */
  listen(workspaceId: number, listener: (clicks: readonly LiveClick[]) => void): () => void;
  close(): Promise<void>;
}
