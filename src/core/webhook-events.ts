import { createHmac, randomBytes, randomFillSync } from 'node:crypto';

/**
 * Events Snip tells other systems of (docs/api.md §14): their types, the body every receiver gets
 * (`{type, timestamp, data}`) and its Standard Webhooks signature.
 */

export const EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.disabled',
  'link.broken',
  'link.recovered',
  'link.clicked',
  'lead.created',
  'sale.created',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** The type of the event an endpoint's test sends: no endpoint subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test';

export type LinkChangeType = Exclude<EventType, 'link.clicked' | 'lead.created' | 'sale.created'>;

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** An event made and not yet stored: its id is the `webhook-id` of every delivery of it. */
export interface NewEvent {
  id: string;
  workspaceId: number;
  type: string;
  /** The body sent, exactly: JSON of {type, timestamp, data}. */
  body: string;
  /** Epoch ms. */
  at: number;
}

const ID_BYTES = 18;
/** Ids drawn per fill: one randomFillSync per 256 ids, where randomBytes per id cost ~5 µs each. */
const POOLED_IDS = 256;
const idPool = Buffer.alloc(ID_BYTES * POOLED_IDS);
let nextId = POOLED_IDS;

/** A fresh event id: `msg_` and 18 random bytes in base64url (24 characters). */
export function eventId(): string {
  if (nextId === POOLED_IDS) {
    randomFillSync(idPool);
    nextId = 0;
  }
  const from = ID_BYTES * nextId++;
  return `msg_${idPool.toString('base64url', from, from + ID_BYTES)}`;
}

/** An event of the type about `data`, made now. */
export function newEvent(workspaceId: number, type: string, data: unknown, at = Date.now()): NewEvent {
  const body = JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
  return { id: eventId(), workspaceId, type, body, at };
}

const SECRET_PREFIX = 'whsec_';

/** A new signing secret: `whsec_` and 32 random bytes in base64, as Standard Webhooks has them. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The `webhook-signature` header of a message: `v1,` and the base64 HMAC-SHA256, keyed by the
 * secret's bytes, of `id.timestamp.body` (timestamp in whole seconds).
 */
export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of a signed delivery. */
export function signedHeaders(
  secret: string,
  id: string,
  body: string,
  now = Date.now(),
): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureOf(secret, id, timestamp, body),
  };
}
