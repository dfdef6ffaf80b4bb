import { Type } from '@sinclair/typebox';

/** Leads, sales and revenue in a stats answer (docs/api.md §20). */

const count = (description: string) => Type.Integer({ minimum: 0, description });
const revenue = Type.Record(Type.String({ pattern: '^[A-Z]{3}$' }), Type.Integer({ minimum: 0 }), {
  description: 'Per ISO 4217 currency, in minor units; {} when none.',
  examples: [{ EUR: 14700 }],
});
const rate = (description: string) =>
  Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: `${description} Four decimals.` });

export const ConversionFiguresSchema = Type.Object(
  {
    totals: Type.Object(
      {
        leads: count('Leads attributed to the links in the range.'),
        sales: count('Sales attributed to them.'),
        revenue,
      },
      { additionalProperties: false },
    ),
    rates: Type.Object(
      {
        leads_per_click: rate('Leads per human click; null without clicks.'),
        sales_per_lead: rate('Sales per lead; null without leads.'),
      },
      { additionalProperties: false },
    ),
    series: Type.Array(
      Type.Object(
        {
          day: Type.String({ format: 'date', description: 'A UTC day.' }),
          leads: count('Leads of the day.'),
          sales: count('Sales of the day.'),
          revenue,
        },
        { additionalProperties: false },
      ),
      {
        description:
          'Every UTC day the range touches, oldest first, empty ones as 0: conversions are kept by day, whatever the interval.',
      },
    ),
  },
  {
    additionalProperties: false,
    description:
      'What tracked links led to (§20): kept daily as long as the link, like the click aggregates.',
  },
);
