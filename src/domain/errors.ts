/** The API's error catalogue (SPEC.md 2.3): one row per code, the only place statuses live. */
export const ERROR_TABLE = {
  '300': { status: 400, message: 'The request is malformed.' },
  '301': { status: 401, message: 'No API key was sent.' },
  '302': { status: 400, message: 'The url field is missing or empty.' },
  '303': { status: 401, message: 'The API key is not valid.' },
  '304': { status: 403, message: 'The account has reached its link quota.' },
  '305': { status: 409, message: 'This URL was already shortened.' },
  '306': { status: 422, message: 'The target page could not be fetched.' },
  '307': { status: 422, message: 'The target page answers 404 Not Found.' },
  '308': { status: 422, message: 'The target page is protected by ModSecurity.' },
  '309': { status: 422, message: 'The target page answers with a Cloudflare challenge.' },
  '310': { status: 422, message: 'Links to social networks are not accepted.' },
  '311': { status: 422, message: 'The target page is empty (Content-Length: 0).' },
  '312': { status: 422, message: 'No group of this account has that ID or API identifier.' },
  '429': { status: 429, message: 'Too many requests.' },
} as const;

export type ErrorCode = keyof typeof ERROR_TABLE;

export const ERROR_CODES = Object.keys(ERROR_TABLE) as ErrorCode[];

/** A refusal the API answers in its envelope; `headers` carries e.g. Location or Retry-After. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message?: string, headers: Record<string, string> = {}) {
    super(message ?? ERROR_TABLE[code].message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_TABLE[code].status;
    this.headers = headers;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/**
 * A dependency the answer needs (shared rate-limit state) is unreachable. Not a refusal: the request
 * was not judged, so the client should retry later (HTTP 503, `error` "503", Retry-After).
 */
export class UnavailableError extends Error {
  override name = 'UnavailableError';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds = 5, options?: ErrorOptions) {
    super(message, options);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
