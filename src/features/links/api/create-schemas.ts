import { type Static, Type } from '@sinclair/typebox';
import { type ApiErrorCode, CREATE_ERROR_CODES } from '../../../core/errors.ts';

/** One schema per request and response: fastify validates and serializes with them, /openapi.json shows them. */

const url = Type.String({
  description: 'Absolute http(s) URL, at most 2,048 characters.',
  examples: ['https://example.com/a/long/page'],
});
const group = Type.String({
  description: "A group's numeric ID or API identifier; the group must belong to the key's account.",
});

const domain = Type.String({
  maxLength: 1024,
  description:
    "Optional extension: the host of the domain the link goes on (the default, a shared one, or the account's own once verified; 317 otherwise). By default the account's default domain.",
});

export const JsonCreateBody = Type.Object(
  { url: Type.Optional(url), group: Type.Optional(group), domain: Type.Optional(domain) },
  { description: 'JSON encoding: the API key travels in the X-API-Key header.' },
);

export const FormCreateBody = Type.Object(
  {
    url: Type.Optional(url),
    apikey: Type.Optional(
      Type.String({ description: 'The API key (legacy form encoding). X-API-Key wins when both are sent.' }),
    ),
    group: Type.Optional(group),
    domain: Type.Optional(domain),
  },
  { description: 'Legacy form encoding: the API key travels in the apikey field.' },
);

export type CreateBody = Static<typeof FormCreateBody>;

export const CreateHeaders = Type.Object({
  'x-api-key': Type.Optional(Type.String({ description: 'The API key (JSON encoding).' })),
});

const timestamps = Type.String({
  description: 'YYYY/MM/DD HH:MM:SS in TIMESTAMP_TZ (default UTC).',
  pattern: '^\\d{4}/\\d{2}/\\d{2} \\d{2}:\\d{2}:\\d{2}$',
});

export const SuccessEnvelope = Type.Object(
  {
    success: Type.Literal('true'),
    timestamps,
    message: Type.String(),
    error: Type.Literal(''),
    short_code: Type.String({ pattern: '^[0-9A-Za-z]{7}$' }),
    short_url: Type.String({ format: 'uri' }),
    long_url: Type.String(),
    qr_code: Type.String({ format: 'uri' }),
    title: Type.String({ description: 'The target page title, "" when it has none.' }),
    clicks: Type.Integer({ minimum: 0 }),
  },
  { $id: 'SuccessEnvelope', additionalProperties: false },
);

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal('false'),
    timestamps,
    message: Type.String({ description: 'Human-readable reason; the wording is not a contract.' }),
    error: Type.Unsafe<ApiErrorCode>({
      type: 'string',
      enum: CREATE_ERROR_CODES,
      description: 'The error code as text (see the error table).',
    }),
  },
  { $id: 'ErrorEnvelope', additionalProperties: false },
);

export type SuccessBody = Static<typeof SuccessEnvelope>;
export type ErrorBody = Static<typeof ErrorEnvelope>;

/** Shared schemas, added on the root instance so /openapi.json lists them as components. */
export const CREATE_SCHEMAS = [SuccessEnvelope, ErrorEnvelope];
