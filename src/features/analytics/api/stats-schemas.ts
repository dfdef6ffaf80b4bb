import { type Static, Type } from '@sinclair/typebox';

/** The stats of the management API (docs/api.md §9.4): the range asked for, and the answer. */

const time = (description: string) => Type.String({ format: 'date-time', description });

const DAY_OR_TIME =
  'A day (YYYY-MM-DD) or an RFC 3339 date-time, at most 40 characters; a date-time is rounded to its bucket.';

export const StatsQuery = Type.Object(
  {
    from: Type.Optional(
      Type.String({
        maxLength: 40,
        description: `${DAY_OR_TIME} The first bucket; by default 30 days before \`to\`.`,
      }),
    ),
    to: Type.Optional(
      Type.String({
        maxLength: 40,
        description: `${DAY_OR_TIME} A day includes that day; by default today (UTC) included.`,
      }),
    ),
    interval: Type.Optional(
      Type.Union([Type.Literal('day'), Type.Literal('hour')], {
        default: 'day',
        description:
          'Bucket size. `hour` reads raw events, kept ANALYTICS_RETENTION_DAYS (90 by default): an ' +
          'hourly range reaching further back is 300. `day` reads the daily aggregates, kept for the ' +
          "link's life.",
      }),
    ),
  },
  { additionalProperties: false },
);

export type StatsQueryType = Static<typeof StatsQuery>;

const count = (description: string) => Type.Integer({ minimum: 0, description });

const BreakdownSchema = Type.Array(
  Type.Object(
    {
      value: Type.String(),
      clicks: count('Human clicks with this value.'),
    },
    { additionalProperties: false },
  ),
  {
    description:
      'Sorted by clicks, then value: the top 50, then one `other` row summing the rest when there is a rest.',
  },
);

const breakdown = (description: string) => ({
  ...BreakdownSchema,
  description: `${description} ${BreakdownSchema.description}`,
});

export const StatsSchema = Type.Object(
  {
    from: time('Start of the first bucket (UTC), inclusive.'),
    to: time('End of the last bucket (UTC), exclusive.'),
    interval: Type.Union([Type.Literal('day'), Type.Literal('hour')]),
    totals: Type.Object(
      {
        clicks: count('Human clicks in the range.'),
        unique_visitors: count(
          'The sum of daily unique visitors: a visitor id changes every UTC day by design, so one ' +
            'person on two days counts twice.',
        ),
        bot_hits: count('Redirects of bots, previews and prefetches.'),
        qr_scans: count('Human clicks that came from the QR code.'),
      },
      { additionalProperties: false },
    ),
    series: Type.Array(
      Type.Object(
        {
          t: time('Start of the bucket (UTC).'),
          clicks: count('Human clicks in the bucket.'),
          unique_visitors: count(
            'Unique visitors in the bucket (a day, or an hour of one day: a visitor id lives one UTC day).',
          ),
        },
        { additionalProperties: false },
      ),
      { description: 'Every bucket of the range, oldest first, empty ones as 0.' },
    ),
    referrers: breakdown('Referrer hosts; `direct` when none.'),
    countries: breakdown('ISO 3166-1 alpha-2; `ZZ` when unknown.'),
    devices: breakdown('desktop, mobile, tablet, other.'),
    os: breakdown('Operating system families.'),
    browsers: breakdown('Browser families.'),
    languages: breakdown('Primary subtag of the first Accept-Language entry; `unknown` when none.'),
    sources: breakdown('`qr` (the QR code) or `link`.'),
    bots: breakdown('Bot hits by kind (a crawler name, prefetch, head, no-agent); `clicks` counts hits.'),
  },
  { $id: 'Stats', additionalProperties: false },
);

export type StatsResource = Static<typeof StatsSchema>;

export const STATS_SCHEMAS = [StatsSchema];
