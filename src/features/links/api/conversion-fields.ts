import { Type } from '@sinclair/typebox';

/** A link's conversion tracking and figures (docs/api.md §20), both ways. */

export const CONVERSION_FIELDS = {
  track_conversions: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      description:
        "Append a random click id (`snip_id`) to the target on every human click, for leads and sales (§20). null follows the workspace's `track_conversions`.",
    }),
  ),
};

const figure = (description: string) => Type.Integer({ minimum: 0, description });

export const CONVERSION_RESOURCE = {
  track_conversions: Type.Boolean({
    description:
      "Whether the redirect appends a click id: the link's own choice, else the workspace's default (the choice in force).",
  }),
  leads: figure('Leads attributed to the link (§20).'),
  sales: figure('Sales attributed to the link.'),
  revenue: Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Integer({ minimum: 0 }), {
    description: 'Revenue of those sales per ISO 4217 currency, in minor units; {} when none.',
    examples: [{ EUR: 14700, USD: 4900 }],
  }),
};
