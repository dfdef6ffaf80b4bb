import type { ApiErrorCode } from '../errors.ts';

/** What target inspection (docs/api.md §2.7) tells the create-link service. */
export type InspectFailureCode = Extract<ApiErrorCode, '306' | '307' | '308' | '309' | '311'>;

export type InspectOutcome =
  | { ok: true; title: string; finalUrl: string; status: number }
  | { ok: false; code: InspectFailureCode; reason: string };

export interface Inspector {
  inspect(url: URL): Promise<InspectOutcome>;
  close(): Promise<void>;
}
