export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has; injected in tests to fake DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface InspectorOptions {
  /** Lifts the non-public address guard (ALLOW_PRIVATE_TARGETS). */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Overall deadline across every hop and the body read; default 5000. */
  timeoutMs?: number;
  /** Redirects followed at most; default 5. */
  maxRedirects?: number;
  /** Body bytes read at most while looking for the title; default 512 KiB. */
  maxBodyBytes?: number;
  /**
   * A host on an operator's blocklist (docs/api.md §13): a hop to it is never fetched and the
   * inspection answers 316.
   */
  blockedHost?: (hostname: string) => boolean;
}
