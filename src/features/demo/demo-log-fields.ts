import type { FastifyRequest } from 'fastify';
import { redactKeys } from '../../core/api-key.ts';
import type { DemoLogEntry } from '../../core/ports/shared-state.ts';

/**
 * What the public demo log shows of a request (docs/api.md §3): only the fields /create reads, each
 * as text of bounded length, keys other than the demo key redacted, and anything shaped like a Snip
 * key redacted wherever it appears. Raw bodies are never serialized: they can be deep, circular
 * (multipart files) or carry fields named to trip object handling.
 */

const KEY_FIELDS = ['x-api-key', 'apikey'] as const;
const TEXT_FIELDS = ['url', 'group'] as const;
const MAX_FIELD_LENGTH = 2100;

export function encodingOf(request: FastifyRequest): DemoLogEntry['encoding'] {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('application/json')) return 'json';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (type.startsWith('multipart/form-data')) return 'multipart';
  return 'other';
}

/** A field's value as the log shows it: text as sent (bounded), a scalar as text, anything else by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, MAX_FIELD_LENGTH);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? '[array]' : `[${typeof value}]`;
}

function own(body: unknown, name: string): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

export function loggedFields(request: FastifyRequest, demoKey: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const name of KEY_FIELDS) {
    const value = name === 'x-api-key' ? request.headers['x-api-key'] : own(request.body, name);
    if (value === undefined) continue;
    fields[name] = typeof value === 'string' && value.trim() === demoKey ? demoKey : '[redacted]';
  }
  for (const name of TEXT_FIELDS) {
    const value = own(request.body, name);
    if (value !== undefined) fields[name] = redactKeys(shown(value));
  }
  return fields;
}

/** The envelope answered, as an object; keys it might echo are redacted too. */
export function loggedBody(payload: string): Record<string, unknown> {
  try {
    const body: unknown = JSON.parse(redactKeys(payload));
    return body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
