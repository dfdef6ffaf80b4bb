import type { ApiErrorCode } from '../errors.ts';

/** What target inspection (docs/api.md §2.7) tells the create-link service. */
export type InspectFailureCode = Extract<ApiErrorCode, '306' | '307' | '308' | '309' | '311' | '316'>;

/** Why a target could not be fetched (306), as a code for logs and tests. */
export type FetchFailure =
  | 'blocked'
  | 'dns'
  | 'refused'
  | 'reset'
  | 'tls'
  | 'timeout'
  | 'redirect'
  | 'status'
  | 'failed';

/**
 * A failure's `reason` is shown to the client: it never names an address, a resolved IP or a
 * library's error text.
 */
export type InspectOutcome =
  | { ok: true; title: string; finalUrl: string; status: number }
  | { ok: false; code: InspectFailureCode; reason: string; cause?: FetchFailure; status?: number };

export interface Inspector {
  inspect(url: URL): Promise<InspectOutcome>;
  close(): Promise<void>;
}
