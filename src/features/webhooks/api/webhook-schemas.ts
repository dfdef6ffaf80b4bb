import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../../core/webhook-events.ts';

/** The webhooks of the management API (docs/api.md §14). */

const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { description: 'An event an endpoint can hear.' },
);

const time = (description: string) => Type.String({ format: 'date-time', description });

export const WebhookSchema = Type.Object(
  {
    id: Type.Integer(),
    url: Type.String({ description: 'Where signed events are POSTed.' }),
    events: Type.Array(EventTypeSchema),
    description: Type.String(),
    enabled: Type.Boolean({
      description: 'False when its admins or Snip (after a day of failures) disabled it.',
    }),
    disabled: Type.Union(
      [
        Type.Object(
          { reason: Type.Union([Type.Literal('failing'), Type.Literal('manual')]), at: time('When.') },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Why and when it was disabled; null while enabled.' },
    ),
    failing_since: Type.Union([time('The first failed attempt since its last success.'), Type.Null()]),
    created_at: time('When it was added.'),
    updated_at: time('When it last changed.'),
    secret: Type.Optional(
      Type.String({
        description: 'whsec_…: the signing secret, only in the answer that made or rotated it.',
      }),
    ),
  },
  { $id: 'Webhook', additionalProperties: false },
);

export const WebhookListSchema = Type.Object(
  { items: Type.Array(Type.Ref(WebhookSchema)) },
  { $id: 'WebhookList', additionalProperties: false },
);

export const DeliverySchema = Type.Object(
  {
    id: Type.Integer(),
    webhook_id: Type.String({ description: 'The webhook-id header: the same on every retry and resend.' }),
    type: Type.String({ description: 'The event type (webhook.test for a test).' }),
    status: Type.Union(
      ['pending', 'delivered', 'failed', 'cancelled'].map((state) => Type.Literal(state)),
      { description: 'failed: its retries are spent; cancelled: its endpoint was disabled.' },
    ),
    attempt: Type.Integer({ description: 'Attempts made so far.' }),
    response_code: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The last answer’s HTTP status.',
    }),
    duration_ms: Type.Union([Type.Integer(), Type.Null()], {
      description: 'How long the last attempt took.',
    }),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.' }),
    created_at: time('When it was queued.'),
    updated_at: time('When it last changed.'),
    next_attempt_at: Type.Union([time('When it is tried next.'), Type.Null()]),
  },
  { $id: 'WebhookDelivery', additionalProperties: false },
);

export const DeliveryListSchema = Type.Object(
  {
    items: Type.Array(Type.Ref(DeliverySchema)),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'WebhookDeliveryList', additionalProperties: false },
);

export const TestSentSchema = Type.Object(
  { webhook_id: Type.String({ description: 'The webhook-id of the test event queued.' }) },
  { $id: 'WebhookTestSent', additionalProperties: false },
);

export const CreateWebhookBody = Type.Object(
  {
    url: Type.String({ maxLength: 2048 }),
    events: Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length * 2 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

export const PatchWebhookBody = Type.Object(
  {
    url: Type.Optional(Type.String({ maxLength: 2048 })),
    events: Type.Optional(Type.Array(EventTypeSchema, { minItems: 1, maxItems: EVENT_TYPES.length * 2 })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    enabled: Type.Optional(Type.Boolean({ description: 'true starts its failure count afresh.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookParams = Type.Object({ id: Type.String({ pattern: '^[0-9]{1,15}$' }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ pattern: '^[0-9]{1,15}$' }),
  delivery: Type.String({ pattern: '^[0-9]{1,15}$' }),
});
export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

export const WEBHOOK_SCHEMAS = [
  WebhookSchema,
  WebhookListSchema,
  DeliverySchema,
  DeliveryListSchema,
  TestSentSchema,
];
