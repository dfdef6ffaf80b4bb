import type { DeliveryRecord, WebhookEndpoint } from '../../core/ports/webhook-store.ts';

/** Endpoints and deliveries as the API shows them (docs/api.md §14): snake_case, RFC 3339 UTC times. */

/** The endpoint; its secret only when `withSecret` (the answer that made or rotated it). */
export function endpointJson(endpoint: WebhookEndpoint, withSecret = false) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled: endpoint.disabled
      ? { reason: endpoint.disabled.reason, at: endpoint.disabled.at.toISOString() }
      : null,
    failing_since: endpoint.failingSince?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    ...(withSecret ? { secret: endpoint.secret } : {}),
  };
}

export function deliveryJson(delivery: DeliveryRecord) {
  return {
    id: delivery.id,
    webhook_id: delivery.messageId,
    type: delivery.type,
    status: delivery.state,
    attempt: delivery.attempts,
    response_code: delivery.statusCode,
    duration_ms: delivery.durationMs,
    error: delivery.error,
    created_at: delivery.createdAt.toISOString(),
    updated_at: delivery.updatedAt.toISOString(),
    next_attempt_at: delivery.nextAt?.toISOString() ?? null,
  };
}
