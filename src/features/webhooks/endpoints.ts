import { DAY_MS } from '../../core/days.ts';
import { Refusal } from '../../core/errors.ts';
import type { NewAuditEntry, RecordAudit } from '../../core/moderation.ts';
import type {
  DeliveryRecord,
  EndpointChange,
  WebhookEndpoint,
  WebhookStore,
} from '../../core/ports/webhook-store.ts';
import {
  type EventType,
  isEventType,
  newEvent,
  newSigningSecret,
  TEST_EVENT_TYPE,
} from '../../core/webhook-events.ts';

/** Endpoints a workspace holds at most. */
export const MAX_ENDPOINTS = 20;
/** How far back an endpoint's deliveries are listed. */
export const DELIVERY_DAYS = 7;

/** Who acts, as the audit log names them. */
export type WebhookAuditor = Pick<NewAuditEntry, 'actorId' | 'actor'>;

export interface EndpointFields {
  url?: unknown;
  events?: unknown;
  description?: unknown;
  enabled?: unknown;
}

export interface EndpointServiceDeps {
  store: WebhookStore;
  /** True when Snip may send to the URL's host (the target address policy); refusals are 320. */
  mayReach: (url: URL) => Promise<boolean>;
  audit: RecordAudit;
  /** An endpoint changed or an event was queued here: the outbox and the subscribers look now. */
  changed: () => void;
  queued: () => void;
  now?: () => number;
}

const malformed = (detail: string) => new Refusal('300', detail);

function checkedUrl(value: unknown): URL {
  const url = typeof value === 'string' && value.length <= 2048 ? URL.parse(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password)
    throw new Refusal(
      '320',
      'The url must be an absolute http(s) URL of at most 2,048 characters, without credentials.',
    );
  return url;
}

function checkedEvents(value: unknown): EventType[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every(isEventType))
    throw malformed(
      'events is a non-empty list of link.created, link.updated, link.deleted, link.disabled, link.clicked.',
    );
  return [...new Set(value)];
}

function checkedDescription(value: unknown): string {
  if (typeof value !== 'string' || value.length > 500)
    throw malformed('description is text of at most 500 characters.');
  return value.trim();
}

/**
 * A workspace's webhook endpoints (docs/api.md §14): made, changed, rotated, removed, tested, and
 * their deliveries of the last seven days listed and sent again. Every change is audited.
 */
export function endpointService(deps: EndpointServiceDeps) {
  const { store } = deps;

  async function found(workspaceId: number, id: number): Promise<WebhookEndpoint> {
    const endpoint = Number.isSafeInteger(id) ? await store.findEndpoint(workspaceId, id) : undefined;
    if (!endpoint) throw new Refusal('314', 'This workspace has no webhook endpoint with that id.');
    return endpoint;
  }

  return {
    list: (workspaceId: number) => store.listEndpoints(workspaceId),
    get: found,

    ...endpointChanges(deps, found),
    ...endpointSends(deps, found),
  };
}

type Found = (workspaceId: number, id: number) => Promise<WebhookEndpoint>;

/** Endpoints made, changed, rotated and removed, each change audited. */
function endpointChanges(deps: EndpointServiceDeps, found: Found) {
  const { store } = deps;
  async function reachable(value: unknown): Promise<string> {
    const url = checkedUrl(value);
    if (!(await deps.mayReach(url))) throw new Refusal('320');
    return url.href;
  }

  const record = (
    by: WebhookAuditor,
    endpoint: WebhookEndpoint,
    action: string,
    after?: Record<string, unknown>,
    before?: Record<string, unknown>,
  ) =>
    deps.audit({
      ...by,
      workspaceId: endpoint.workspaceId,
      action,
      target: endpoint.url,
      before: before ?? null,
      after: after ?? null,
    });

  return {
    async create(workspaceId: number, fields: EndpointFields, by: WebhookAuditor): Promise<WebhookEndpoint> {
      const events = checkedEvents(fields.events);
      const description = fields.description === undefined ? '' : checkedDescription(fields.description);
      const url = await reachable(fields.url);
      if ((await store.listEndpoints(workspaceId)).length >= MAX_ENDPOINTS)
        throw malformed(`A workspace holds at most ${MAX_ENDPOINTS} webhook endpoints.`);
      const endpoint = await store.createEndpoint({
        workspaceId,
        url,
        events,
        description,
        secret: newSigningSecret(),
      });
      deps.changed();
      await record(by, endpoint, 'webhook.create', { events });
      return endpoint;
    },

    async update(workspaceId: number, id: number, fields: EndpointFields, by: WebhookAuditor) {
      const before = await found(workspaceId, id);
      const change: EndpointChange = {};
      if (fields.events !== undefined) change.events = checkedEvents(fields.events);
      if (fields.description !== undefined) change.description = checkedDescription(fields.description);
      if (fields.enabled !== undefined) {
        if (typeof fields.enabled !== 'boolean') throw malformed('enabled is true or false.');
        change.enabled = fields.enabled;
      }
      if (fields.url !== undefined) change.url = await reachable(fields.url);
      const endpoint = (await store.updateEndpoint(workspaceId, id, change)) ?? before;
      deps.changed();
      const changed = Object.keys(change) as Array<Exclude<keyof EndpointChange, 'secret'>>;
      const was = Object.fromEntries(changed.map((key) => [key, before[key]]));
      await record(by, endpoint, 'webhook.update', { ...change }, was);
      return endpoint;
    },

    /** A new secret, shown once; the old one signs nothing more. */
    async rotate(workspaceId: number, id: number, by: WebhookAuditor): Promise<WebhookEndpoint> {
      await found(workspaceId, id);
      const endpoint = await store.updateEndpoint(workspaceId, id, { secret: newSigningSecret() });
      if (!endpoint) throw new Refusal('314');
      await record(by, endpoint, 'webhook.rotate');
      return endpoint;
    },

    async remove(workspaceId: number, id: number, by: WebhookAuditor): Promise<void> {
      const endpoint = await found(workspaceId, id);
      if (!(await store.deleteEndpoint(workspaceId, id))) throw new Refusal('314');
      deps.changed();
      await record(by, endpoint, 'webhook.delete');
    },
  };
}

/** What is sent to an endpoint, and what was: a test event, its deliveries, one sent again. */
function endpointSends(
  deps: EndpointServiceDeps,
  found: (workspaceId: number, id: number) => Promise<WebhookEndpoint>,
) {
  const { store } = deps;
  const now = deps.now ?? Date.now;
  return {
    /** Queues a signed `webhook.test` event for this endpoint alone, whatever it subscribes to. */
    async test(workspaceId: number, id: number): Promise<string> {
      const endpoint = await found(workspaceId, id);
      const event = newEvent(workspaceId, TEST_EVENT_TYPE, {
        endpoint: { id: endpoint.id, url: endpoint.url },
        message: 'A test event from Snip.',
      });
      await store.sendTo(endpoint.id, event);
      deps.queued();
      return event.id;
    },

    async deliveries(
      workspaceId: number,
      id: number,
      limit: number,
      beforeId?: number,
    ): Promise<DeliveryRecord[]> {
      await found(workspaceId, id);
      return store.listDeliveries(id, now() - DELIVERY_DAYS * DAY_MS, limit, beforeId);
    },

    async resend(workspaceId: number, id: number, deliveryId: number): Promise<void> {
      await found(workspaceId, id);
      if (!Number.isSafeInteger(deliveryId) || !(await store.resend(workspaceId, id, deliveryId)))
        throw new Refusal('314', 'This endpoint has no delivery with that id.');
      deps.queued();
    },
  };
}

export type EndpointService = ReturnType<typeof endpointService>;
