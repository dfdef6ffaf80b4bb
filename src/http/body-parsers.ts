import formbody from '@fastify/formbody';
import multipart, { type Multipart } from '@fastify/multipart';
import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify';
import { Refusal } from '../core/errors.ts';
import { API_STATUS } from './api-statuses.ts';

export const MAX_BODY_BYTES = 64 * 1024;

const MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: MAX_BODY_BYTES,
  fields: 20,
  fileSize: MAX_BODY_BYTES,
  files: 3,
  parts: 25,
};

/** A part's value: a field's text, a file's bytes; undefined for neither. */
function partValue(part: Multipart): unknown {
  if ('value' in part && part.value !== undefined) return part.value;
  return (part as unknown as { _buf?: Buffer })._buf;
}

/**
 * A multipart body's fields as plain keys and values (a repeated name: its values in order), read
 * before validation. A body the parser cannot read (no boundary, cut short) is the client's fault:
 * a 400 every surface answers in its own form, never a 500.
 */
async function readMultipart(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  let fields: Record<string, Multipart | Multipart[] | undefined> = {};
  try {
    for await (const part of request.parts()) {
      fields = part.fields;
      if (part.type === 'file') await part.toBuffer();
    }
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode !== undefined) throw error;
    throw Object.assign(new Error('The multipart body could not be read.'), {
      statusCode: 400,
      cause: error,
    });
  }
  const body: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    const values = (Array.isArray(field) ? field : [field]).map((part) => part && partValue(part));
    const present = values.filter((value) => value !== undefined);
    if (present.length > 0) body[key] = Array.isArray(field) ? present : present[0];
  }
  request.body = body;
}

/**
 * The key fastify's JSON parser refused in a body that is otherwise valid JSON: `__proto__`, or
 * `constructor` holding a `prototype` (prototype poisoning). Undefined when the text is not JSON at
 * all. JSON.parse makes such keys plain own properties, so reading them here is harmless.
 */
export function refusedJsonKey(text: string): string | undefined {
  let refused: string | undefined;
  try {
    JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__') refused ??= '__proto__';
      else if (
        key === 'constructor' &&
        value !== null &&
        typeof value === 'object' &&
        Object.hasOwn(value, 'prototype')
      )
        refused ??= 'constructor.prototype';
      return value;
    });
  } catch {
    return undefined;
  }
  return refused;
}

/**
 * fastify's JSON parser (poisoned keys refused), which answers a refused key as a refusal naming it
 * (300, every surface in its own form) rather than as JSON that does not parse. The status rides
 * along for the scopes that answer by status alone.
 */
function jsonParser(app: FastifyInstance): FastifyBodyParser<string> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) =>
    parseJson(request, text, (error, body) => {
      const key = error ? refusedJsonKey(text) : undefined;
      if (key === undefined) return done(error, body);
      const refusal = new Refusal(
        '300',
        `The body holds the key "${key}", which Snip refuses (it could change how objects behave): remove or rename it.`,
      );
      done(Object.assign(refusal, { statusCode: API_STATUS['300'] }), undefined);
    });
}

/** JSON (poisoned keys named), urlencoded and multipart forms; nothing else is read (text/plain becomes 300). */
export async function registerBodyParsers(app: FastifyInstance): Promise<void> {
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, jsonParser(app));
  await app.register(formbody, { bodyLimit: MAX_BODY_BYTES });
  await app.register(multipart, { limits: MULTIPART_LIMITS });
  app.addHook('preValidation', readMultipart);
}

/**
 * Inside a scope: a JSON content type with an empty body is no body, not a malformed one (clients
 * such as Shlink's and Kutt's send the header on a DELETE without a body).
 */
export function acceptEmptyJson(scope: FastifyInstance): void {
  const parseJson = jsonParser(scope);
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') done(null, undefined);
    else parseJson(request, text, done);
  });
}
