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
        leads_per_click: rate(
          'Leads per human click; null without clicks, or when `filtered` is false (the clicks are filtered, the leads are not).',
        ),
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
    filtered: Type.Boolean({
      description:
        'Whether the figures follow every filter of the answer: group, tag and domain keep their links; a filter on the visits (country, device, os, browser, language, referrer, source, utm_*) is not applied to conversions, and then this is false.',
    }),
    variants: Type.Optional(
      Type.Array(
        Type.Object(
          {
            variant: Type.String({
              pattern: '^[1-4]$',
              description: "The A/B test's variant, as `variants` of the clicks names it.",
            }),
            leads: count('Leads of clicks sent to the variant.'),
            sales: count('Sales attributed to those leads, else to a click of the variant.'),
            revenue,
          },
          { additionalProperties: false },
        ),
        {
          description:
            "A link's answer only: its figures per A/B test variant over the range's UTC days, variants without any omitted; [] for a link without a test.",
        },
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'What tracked links led to (§20): kept daily as long as the link, like the click aggregates.',
  },
);
