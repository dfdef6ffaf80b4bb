/** What target inspection (SPEC.md 2.7) tells the create-link service. */
export type InspectFailureCode = '306' | '307' | '308' | '309' | '311';

export type InspectOutcome =
  | { ok: true; title: string; finalUrl: string; status: number }
  | { ok: false; code: InspectFailureCode; reason: string };

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
}

export interface Inspector {
  inspect(url: URL): Promise<InspectOutcome>;
  close(): Promise<void>;
}
