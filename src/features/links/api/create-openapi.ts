import { Type } from '@sinclair/typebox';
import { API_ERRORS, type ApiErrorCode, CREATE_ERROR_CODES } from '../../../core/errors.ts';
import { API_STATUS } from '../../../http/api-statuses.ts';
import {
  CreateHeaders,
  ErrorEnvelope,
  FormCreateBody,
  JsonCreateBody,
  SuccessEnvelope,
} from './create-schemas.ts';

/** The route schema of POST /create and /demo/create: validation, serialization and OpenAPI from one place. */

/** How one of the two create endpoints is named and limited in /openapi.json. */
export interface CreateOperation {
  operationId: string;
  summary: string;
  tag: string;
  /** What RateLimit-Limit counts on this endpoint. */
  limitDescription: string;
}

function rateLimitHeaders(limitDescription: string) {
  return {
    'RateLimit-Limit': { type: 'integer', description: limitDescription },
    'RateLimit-Remaining': { type: 'integer', description: 'Requests left in this window.' },
    'RateLimit-Reset': { type: 'integer', description: 'Seconds until the window resets.' },
  };
}

function codesFor(status: number): ApiErrorCode[] {
  return CREATE_ERROR_CODES.filter((code) => API_STATUS[code] === status);
}

function errorResponse(status: number, headers: Record<string, object>) {
  const lines = codesFor(status).map((code) => `\`${code}\`: ${API_ERRORS[code]}`);
  return {
    ...Type.Ref(ErrorEnvelope),
    description: `Refused. \`error\` is one of:\n\n${lines.join('\n\n')}`,
    headers,
  };
}

export function createRouteSchema(operation: CreateOperation) {
  const formSchema = { schema: FormCreateBody };
  const rate = rateLimitHeaders(operation.limitDescription);
  const refused = (status: number, extraHeaders: Record<string, object> = {}) =>
    errorResponse(status, { ...rate, ...extraHeaders });
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    tags: [operation.tag],
    description:
      'Shortens a long http(s) URL after checking the target page. Send JSON with the key in X-API-Key ' +
      '(recommended), or a legacy form (urlencoded or multipart) with the key in the apikey field. ' +
      'Checks run in the order of the error table; the first failure answers. With ' +
      'HTTP_STATUS_MODE=always-200 every answer is HTTP 200 and only the body tells the outcome. ' +
      'RateLimit-* headers are sent on every answer once the key is accepted.',
    headers: CreateHeaders,
    body: {
      content: {
        'application/json': { schema: JsonCreateBody },
        'application/x-www-form-urlencoded': formSchema,
        'multipart/form-data': formSchema,
      },
    },
    // The legacy form sends the key in its apikey field instead, hence the empty alternative.
    security: [{ ApiKeyHeader: [] }, {}] as Record<string, string[]>[],
    response: {
      201: {
        ...Type.Ref(SuccessEnvelope),
        description: 'Created. Location holds short_url.',
        headers: {
          Location: { type: 'string', format: 'uri', description: 'The short URL.' },
          ...rate,
        },
      },
      400: refused(400),
      // Without an accepted key no window was spent, so no RateLimit-* headers.
      401: errorResponse(401, {}),
      403: refused(403),
      409: refused(409, {
        Location: { type: 'string', format: 'uri', description: 'The existing short_url, when one exists.' },
      }),
      422: refused(422),
      429: {
        ...refused(429, { 'Retry-After': { type: 'integer', description: 'Seconds to wait.' } }),
        description:
          '`error` is `429`: the window RateLimit-Limit counts is spent (RateLimit-* headers), or this ' +
          'address sent too many missing or wrong keys.',
      },
      500: faultResponse('500', 'An unexpected fault of the server. Safe to retry.'),
      503: {
        ...faultResponse(
          '503',
          'The store or the shared rate-limit state did not answer within STORE_TIMEOUT_MS. Safe to retry ' +
            'after Retry-After; a create stored after all answers the retry with 305 and its Location.',
        ),
        headers: { 'Retry-After': { type: 'integer', description: 'Seconds to wait.' } },
      },
    },
  };
}

/** A fault of the server rather than a refusal: the envelope's four fields, `error` the HTTP status. */
function faultResponse(code: '500' | '503', description: string) {
  return {
    type: 'object',
    description: `${description} \`error\` is \`${code}\`.`,
    properties: {
      success: { type: 'string', const: 'false' },
      timestamps: { type: 'string' },
      message: { type: 'string' },
      error: { type: 'string', const: code },
    },
    required: ['success', 'timestamps', 'message', 'error'],
  };
}
