import { type Static, Type } from '@sinclair/typebox';
import { ConversionFiguresSchema } from './conversion-schemas.ts';

/** The stats of the management API (docs/api.md §9.4): the range asked for, and the answer. */

const time = (description: string) => Type.String({ format: 'date-time', description });

const DAY_OR_TIME =
  'A day (YYYY-MM-DD) or an RFC 3339 date-time, at most 40 characters; a date-time is rounded to its bucket.';

const filter = (description: string, maxLength = 64) =>
  Type.Optional(Type.String({ minLength: 1, maxLength, description: `Filter: ${description}` }));

/** The filters of docs/api.md §19 every stats answer takes, and `tz` and `compare`. */
const COMMON = {
  tz: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        "An IANA time zone whose days and hours the answer is in; by default the workspace's. Unknown: 300.",
    }),
  ),
  compare: Type.Optional(
    Type.Literal('previous', {
      description: '`previous` adds `previous`: the same figures for the period of equal length just before.',
    }),
  ),
  country: filter('ISO 3166-1 alpha-2 (`ZZ`: unknown).', 2),
  device: Type.Optional(
    Type.Union(
      [Type.Literal('desktop'), Type.Literal('mobile'), Type.Literal('tablet'), Type.Literal('other')],
      {
        description: 'Filter: the device type.',
      },
    ),
  ),
  os: filter('an OS family.'),
  browser: filter('a browser family.'),
  language: filter('a primary language subtag (`unknown`: none).', 8),
  referrer: filter(
    'a referrer host (`direct`: none), or a source name (`Google`, `X`, `Email`, …) for all its hosts.',
    253,
  ),
  source: Type.Optional(
    Type.Union([Type.Literal('link'), Type.Literal('qr')], { description: 'Filter: how the visit came.' }),
  ),
  utm_source: filter("the clicked link's long URL's utm_source.", 200),
  utm_medium: filter("the clicked link's long URL's utm_medium.", 200),
  utm_campaign: filter("the clicked link's long URL's utm_campaign.", 200),
};

export const StatsQuery = Type.Object(
  {
    ...COMMON,
    group: filter('links of a group: its ID or API identifier (none such: 312).'),
    tag: filter('links with this tag.', 100),
    domain: filter('links on this domain: a host (one the workspace does not see: 317).', 253),
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

/** A link's stats take the same but group, tag and domain (its `domain` names the link's own). */
export const LinkStatsFilters = Type.Omit(StatsQuery, ['group', 'tag', 'domain'], {
  additionalProperties: false,
});

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

const ANSWER = {
  from: time("Start of the first bucket, inclusive, in the answer's zone's offset."),
  to: time('End of the last bucket, exclusive.'),
  interval: Type.Union([Type.Literal('day'), Type.Literal('hour')]),
  timezone: Type.String({
    description:
      'The zone whose days and hours the buckets are (`UTC` when a zoned unfiltered range reached past the retention).',
  }),
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
  variants: breakdown(
    "A/B test variants ('1' to '4', in the order of the link's variants) of the clicks a test split; [] for links without one.",
  ),
  bots: breakdown(
    'Bot hits by kind (a crawler name, prefetch, head, no-agent); `clicks` counts hits. None when filtered.',
  ),
  referrer_sources: breakdown(
    'Referrer hosts grouped into named sources (Google, X, Email, …); an unnamed host is its own.',
  ),
  utm_sources: breakdown("utm_source of the clicked links' long URLs; links without one are not listed."),
  utm_mediums: breakdown("utm_medium of the clicked links' long URLs."),
  utm_campaigns: breakdown("utm_campaign of the clicked links' long URLs."),
  retained_from: Type.Optional(
    time('Set when the answer read raw events and its range starts earlier: it counts from here on.'),
  ),
  conversions: ConversionFiguresSchema,
};

export const StatsSchema = Type.Object(
  {
    ...ANSWER,
    previous: Type.Optional(
      Type.Object(ANSWER, {
        additionalProperties: false,
        description: 'With compare=previous: the same figures for the period of equal length just before.',
      }),
    ),
  },
  { $id: 'Stats', additionalProperties: false },
);

export type StatsResource = Static<typeof StatsSchema>;

export const STATS_SCHEMAS = [StatsSchema];
