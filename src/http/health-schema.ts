import { Type } from '@sinclair/typebox';

/** A link's health (docs/api.md §21) on the resource: the latest check of its targets. */

export const HealthSchema = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('broken'), Type.Literal('unknown')], {
      description:
        'ok: the targets passed the latest check; broken: they failed two checks in a row (the link ' +
        'keeps redirecting); unknown: not checked since the link was made.',
    }),
    checked_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The latest check (UTC); null: none yet.',
    }),
    code: Type.Union([Type.String(), Type.Null()], {
      description:
        'The code a create would get for the first failing target (url, then rules, then variants) at ' +
        'the latest check: 306-311 or 316; null when they passed.',
    }),
    status: Type.Union([Type.Integer(), Type.Null()], {
      description: "The HTTP status the failing target (or the link's url) answered; null: none answered.",
    }),
    since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the state last changed (UTC); null: never checked.',
    }),
  },
  {
    additionalProperties: false,
    description: 'Its targets as last checked again (§21).',
    examples: [
      {
        state: 'broken',
        checked_at: '2026-11-29T08:00:00.000Z',
        code: '307',
        status: 404,
        since: '2026-11-28T08:00:00.000Z',
      },
    ],
  },
);

export const HEALTH_RESOURCE = { health: HealthSchema };
