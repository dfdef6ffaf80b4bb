import { type Static, Type } from '@sinclair/typebox';
import { MAX_LINK_PASSWORD, MAX_TAG_LENGTH, MAX_TAGS, MAX_TITLE_LENGTH } from '../../../core/link-fields.ts';
import { MAX_URL_LENGTH } from '../../../core/target-url.ts';
import { MAX_RULES } from '../../../core/targeting.ts';
import { DOMAIN_PARAM } from '../../../http/domain-param.ts';
import { HEALTH_RESOURCE } from '../../../http/health-schema.ts';
import { CAMPAIGN_FIELDS, CAMPAIGN_RESOURCE } from './campaign-schemas.ts';
import { CONVERSION_FIELDS, CONVERSION_RESOURCE } from './conversion-fields.ts';
import { TEST_FIELDS, TEST_RESOURCE } from './variant-schemas.ts';

/**
 * The management API's resources and request bodies (docs/api.md §7.2–7.3): fastify validates and
 * serializes with them, /openapi.json shows them. Checks a schema cannot state (a past expires_at,
 * a reserved slug) are the services'.
 */

const time = (description: string) => Type.String({ format: 'date-time', description });

export const GroupRefSchema = Type.Object(
  {
    id: Type.Integer({ description: 'The numeric ID.' }),
    api_id: Type.String({ description: 'The API identifier: a lower-case slug, unique in the account.' }),
    name: Type.String(),
  },
  { $id: 'GroupRef', additionalProperties: false },
);

const RuleSchema = Type.Object(
  {
    if: Type.Object(
      {
        device: Type.Optional(
          Type.Union(
            [Type.Literal('ios'), Type.Literal('android'), Type.Literal('mobile'), Type.Literal('desktop')],
            {
              description:
                'From the User-Agent: ios (iPhone, iPad, iPod), android, mobile (any phone or tablet), ' +
                'desktop (anything else, an unknown agent included).',
            },
          ),
        ),
        country: Type.Optional(
          Type.String({
            pattern: '^[A-Za-z]{2}$',
            description:
              "ISO 3166-1 alpha-2, e.g. DE: the client address's country in the bundled offline database, " +
              "or a CDN's country header when TRUST_PROXY is set.",
          }),
        ),
        language: Type.Optional(
          Type.String({
            pattern: '^[A-Za-z]{2,3}$',
            description: "ISO 639 code, e.g. fr: the visitor's most preferred language (Accept-Language).",
          }),
        ),
      },
      { additionalProperties: false, description: 'Every condition given must hold; at least one is given.' },
    ),
    url: Type.String({ maxLength: MAX_URL_LENGTH * 4, description: "Checked like the link's url." }),
  },
  { additionalProperties: false, description: 'The first rule that holds names the target.' },
);

export const LinkSchema = Type.Object(
  {
    short_code: Type.String({ description: 'The code: 7 drawn characters, or the custom slug.' }),
    short_url: Type.String({ format: 'uri' }),
    domain: Type.String({ description: 'The host of its domain, whose code space holds the code.' }),
    long_url: Type.String({ format: 'uri' }),
    qr_code: Type.String({ format: 'uri', description: 'PNG QR code of short_url.' }),
    title: Type.String({ description: 'The title given, else the target page title, "" when it has none.' }),
    group: Type.Union([Type.Ref(GroupRefSchema), Type.Null()]),
    tags: Type.Array(Type.String(), { description: 'Sorted.' }),
    created_at: time('When the link was created (UTC).'),
    updated_at: time('When the link last changed (UTC).'),
    expires_at: Type.Union([time('From this instant the link answers 410.'), Type.Null()]),
    max_clicks: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description:
        "Human clicks over the link's life after which it answers 410, exact across instances; " +
        'bots and HEAD never count.',
    }),
    has_password: Type.Boolean({ description: 'The password itself is never shown.' }),
    rules: Type.Array(RuleSchema),
    disabled: Type.Union(
      [
        Type.Object(
          { reason: Type.String(), at: Type.String({ format: 'date-time' }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      {
        description:
          'Set when an operator disabled the link for abuse: it answers 410, and only an operator enables it again.',
      },
    ),
    clicks: Type.Integer({ minimum: 0, description: 'Human clicks.' }),
    unique_visitors: Type.Integer({
      minimum: 0,
      description:
        "The link's daily unique visitors summed over its life: a visitor id changes every UTC day by " +
        'design, so one person on two days counts twice.',
    }),
    bot_hits: Type.Integer({ minimum: 0, description: 'Redirects of bots, previews and prefetches.' }),
    archived: Type.Boolean({
      description: 'Hidden from the default list; an archived link keeps redirecting and counting.',
    }),
    public_stats: Type.Boolean({
      description: 'Its stats page is shown to anyone at `/<code>+` on its domain (§19).',
    }),
    last_clicked_at: Type.Union(
      [time('The latest human click counted (UTC); bot hits leave it.'), Type.Null()],
      {
        description: 'null: never clicked. Written with the counts, within seconds of the click.',
      },
    ),
    aliases: Type.Optional(
      Type.Array(Type.String(), { description: 'Codes renames left, oldest first (§18); not in webhooks.' }),
    ),
    ...CAMPAIGN_RESOURCE,
    ...CONVERSION_RESOURCE,
    ...TEST_RESOURCE,
    ...HEALTH_RESOURCE,
  },
  { $id: 'Link', additionalProperties: false },
);

export type LinkResource = Static<typeof LinkSchema>;

export const LinkListSchema = Type.Object(
  {
    items: Type.Array(Type.Ref(LinkSchema)),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `cursor` for the next page; null on the last page.',
    }),
  },
  { $id: 'LinkList', additionalProperties: false },
);

/** A code asked for, checked by the services (300 for its shape, 313 when taken). */
const slug = (description: string) => Type.Optional(Type.String({ maxLength: 256, description }));

const groupRef = Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Integer({ minimum: 1 })], {
  description: "A group's numeric ID or API identifier.",
});
const tags = Type.Array(Type.String({ maxLength: MAX_TAG_LENGTH * 4 }), {
  maxItems: MAX_TAGS * 4,
  description: `At most ${MAX_TAGS} tags of 1-${MAX_TAG_LENGTH} characters; duplicates are dropped.`,
});
const title = Type.String({
  maxLength: MAX_TITLE_LENGTH * 4,
  description: `At most ${MAX_TITLE_LENGTH} characters.`,
});
const ruleFields = {
  expires_at: Type.Optional(
    Type.Union([Type.String({ maxLength: 40 }), Type.Null()], {
      description: 'RFC 3339 date-time in the future: from then on the link answers 410. null removes it.',
    }),
  ),
  max_clicks: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description:
        'From 1 to 1,000,000,000: after that many human clicks (bots and HEAD never count) the link ' +
        'answers 410. null removes the limit.',
    }),
  ),
  password: Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_LINK_PASSWORD * 4 }), Type.Null()], {
      description:
        '8-1,024 characters: visitors get a form and go on only with it. Stored as a scrypt hash, never ' +
        'shown. null removes it.',
    }),
  ),
  rules: Type.Optional(
    Type.Union([Type.Array(RuleSchema, { maxItems: MAX_RULES * 2 }), Type.Null()], {
      description: `At most ${MAX_RULES} targeting rules, in order; [] or null removes them.`,
    }),
  ),
  ...CAMPAIGN_FIELDS,
  ...CONVERSION_FIELDS,
  ...TEST_FIELDS,
};

export const CreateLinkBody = Type.Object(
  {
    // Needed, but checked by the service as on /create: a missing url is 302, not a malformed body.
    url: Type.Optional(
      Type.String({
        maxLength: MAX_URL_LENGTH * 4,
        description: 'Absolute http(s) URL, at most 2,048 characters. Needed: 302 when missing or empty.',
      }),
    ),
    group: Type.Optional(groupRef),
    slug: slug('3-64 characters of A-Z, a-z, 0-9, "_", "-"; case-sensitive; never a path of Snip.'),
    title: Type.Optional(title),
    tags: Type.Optional(tags),
    domain: Type.Optional(
      Type.String({
        maxLength: 1024,
        description:
          "The host of the domain it goes on: the default, a shared one, or the workspace's own once " +
          "verified (317 otherwise). By default the workspace's default domain.",
      }),
    ),
    public_stats: Type.Optional(
      Type.Boolean({
        description:
          'true: its stats page (figures and charts of this link only) is shown to anyone at ' +
          '`/<code>+` on its domain, without a session or key, marked noindex. Default false.',
      }),
    ),
    ...ruleFields,
  },
  { additionalProperties: false, description: 'A new link.' },
);

export type CreateLinkBodyType = Static<typeof CreateLinkBody>;

export const PatchLinkBody = Type.Object(
  {
    url: Type.Optional(
      Type.String({ maxLength: MAX_URL_LENGTH * 4, description: 'A new target, checked as on create.' }),
    ),
    title: Type.Optional(title),
    group: Type.Optional(
      Type.Union([groupRef, Type.Null()], { description: 'null takes the link out of its group.' }),
    ),
    tags: Type.Optional(tags),
    archived: Type.Optional(
      Type.Boolean({
        description:
          'true hides the link from the default list (it keeps redirecting and counting); false shows it again.',
      }),
    ),
    public_stats: Type.Optional(
      Type.Boolean({
        description:
          'true: its stats page (figures and charts of this link only) is shown to anyone at ' +
          '`/<code>+` on its domain, without a session or key, marked noindex. false hides it again.',
      }),
    ),
    slug: slug("A new code, checked as on create (300, 313); the old one stays the link's alias (§18)."),
    ...ruleFields,
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'What to change; fields left out stay as they are.',
  },
);

export type PatchLinkBodyType = Static<typeof PatchLinkBody>;

export { ListLinksQuery, type ListLinksQueryType } from './list-schemas.ts';

/** `?domain=` of a link's own address and of the export. */
export const DomainQuery = Type.Object({ domain: DOMAIN_PARAM }, { additionalProperties: false });

export const CodeParams = Type.Object({
  code: Type.String({ maxLength: 64, description: 'The short code.' }),
});

/** Shared schemas, added on the root instance so /openapi.json lists them as components. */
export const LINK_SCHEMAS = [GroupRefSchema, LinkSchema, LinkListSchema];
