import { type TSchema, Type } from '@sinclair/typebox';
import { API_ERRORS, type ApiErrorCode } from '../core/errors.ts';
import type { Scope } from '../core/scopes.ts';
import { problemResponse, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER } from './openapi-parts.ts';

/** How a management API operation is described (docs/api.md §7): its key, its scope, every problem it can answer. */

/** A success answer: a resource schema, its meaning, and the RateLimit-* (and other) headers. */
export const okResponse = (schema: TSchema, description: string, headers: Record<string, object> = {}) => ({
  ...Type.Ref(schema),
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
});

export const noContentResponse = (description: string) => ({
  type: 'null',
  description,
  headers: RATE_LIMIT_HEADERS,
});

export const LOCATION_HEADER = {
  Location: { type: 'string', format: 'uri', description: 'The new resource.' },
};

/** Both ways to send a key (docs/api.md §7.1). */
export const API_SECURITY: Record<string, string[]>[] = [{ ApiKeyHeader: [] }, { BearerToken: [] }];

const codes = (list: readonly ApiErrorCode[]) =>
  list.map((code) => `\`${code}\` ${API_ERRORS[code]}`).join(' ');

/** The problems of one status, with the codes that answer with it on this operation. */
function problems(list: readonly ApiErrorCode[], extraHeaders: Record<string, object> = {}) {
  return problemResponse(codes(list), { ...RATE_LIMIT_HEADERS, ...extraHeaders });
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  description: string;
  tag:
    | 'Links'
    | 'Stats'
    | 'Groups'
    | 'Account'
    | 'Workspace'
    | 'Members'
    | 'Domains'
    | 'Audit'
    | 'Webhooks'
    | 'Conversions';
  scope: Scope | undefined;
  /** The success answers, by status. */
  ok: Record<number, object>;
  /** The refusals of this operation besides the ones every operation has (300, 301/303, 429; 315 with a scope). */
  refusals?: {
    /** Besides 300. */
    400?: ApiErrorCode[];
    404?: ApiErrorCode[];
    409?: ApiErrorCode[];
    422?: ApiErrorCode[];
    403?: ApiErrorCode[];
  };
}

/** The route's schema parts for /openapi.json: summary, security, tags and every answer. */
export function operationDoc(doc: OperationDoc) {
  const scopeNote = doc.scope ? `Needs the \`${doc.scope}\` scope.` : 'Any key of the account.';
  const refusals = doc.refusals ?? {};
  const response: Record<string, object> = {
    ...doc.ok,
    400: problems(['300', ...(refusals[400] ?? [])]),
    401: problemResponse(codes(['301', '303'])),
    429: problemResponse(
      '`429`: the hourly window of the account is spent, or this address sent too many missing or wrong keys.',
      { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
    ),
    500: problemResponse('`500`: an unexpected fault of the server.'),
    503: problemResponse('`503`: the store or the shared state did not answer in time.', RETRY_AFTER_HEADER),
  };
  const forbidden: ApiErrorCode[] = [...(doc.scope ? (['315'] as const) : []), ...(refusals[403] ?? [])];
  if (forbidden.length > 0) response[403] = problems(forbidden);
  if (refusals[404]) response[404] = problems(refusals[404]);
  if (refusals[409]) response[409] = problems(refusals[409]);
  if (refusals[422]) response[422] = problems(refusals[422]);
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: `${doc.description} ${scopeNote}`,
    tags: [doc.tag],
    security: API_SECURITY,
    response,
  };
}
