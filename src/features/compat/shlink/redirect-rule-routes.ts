import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { LinkResource } from '../../links/index.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { keyNeed, shlinkCaller } from './shlink-auth.ts';
import type { Fields } from './shlink-input.ts';
import { invalidData } from './shlink-problems.ts';
import { okJson, shlinkSchema } from './shlink-schemas.ts';
import { addressOf, onShortUrl } from './short-url-edit.ts';
import { bodyFields } from './short-url-fields.ts';

/**
 * Shlink's redirect rules as Snip's targeting rules (docs/api.md §8.3): a `device` condition
 * (android, ios, mobile, desktop), a `language` one (a primary subtag such as `fr`) and a
 * `geolocation-country-code` one map both ways; a rule with any other condition is refused.
 */

/** A rule's condition as the links service reads it: checked there (an unknown device is 300). */
type Condition = { device?: 'ios' | 'android' | 'mobile' | 'desktop'; country?: string; language?: string };

const TYPES: Readonly<Record<string, keyof Condition>> = {
  device: 'device',
  language: 'language',
  'geolocation-country-code': 'country',
};
const SHLINK_TYPE: Readonly<Record<keyof Condition, string>> = {
  device: 'device',
  language: 'language',
  country: 'geolocation-country-code',
};

function rulesOf(link: LinkResource) {
  return {
    defaultLongUrl: link.long_url,
    redirectRules: link.rules.map((rule, index) => ({
      longUrl: rule.url,
      priority: index + 1,
      conditions: Object.entries(rule.if).map(([key, value]) => ({
        type: SHLINK_TYPE[key as keyof Condition],
        matchKey: null,
        matchValue: value,
      })),
    })),
  };
}

/** Shlink's rules as Snip's; invalid data for a condition Snip has no equivalent of. */
function snipRules(raw: unknown): Array<{ if: Condition; url: string }> {
  const rules = bodyFields(raw)?.redirectRules;
  if (!Array.isArray(rules)) throw invalidData(['redirectRules']);
  return rules.map((rule: Fields | null) => {
    const conditions = rule?.conditions;
    if (typeof rule?.longUrl !== 'string' || !Array.isArray(conditions)) throw invalidData(['redirectRules']);
    const condition: Condition = {};
    for (const given of conditions as Array<Fields | null>) {
      const key = typeof given?.type === 'string' ? TYPES[given.type] : undefined;
      if (!key || condition[key] !== undefined || typeof given?.matchValue !== 'string') {
        throw invalidData(['redirectRules']);
      }
      (condition as Record<string, string>)[key] = given.matchValue;
    }
    return { if: condition, url: rule.longUrl };
  });
}

const PARAMS = Type.Object({ shortCode: Type.String() });
const QUERY = Type.Object({ domain: Type.Optional(Type.String()) });
const RULES = Type.Object({
  defaultLongUrl: Type.String(),
  redirectRules: Type.Array(
    Type.Object({
      longUrl: Type.String(),
      priority: Type.Integer(),
      conditions: Type.Array(
        Type.Object({ type: Type.String(), matchKey: Type.Null(), matchValue: Type.String() }),
      ),
    }),
  ),
});

export function redirectRuleRoutes(app: FastifyInstance, deps: CompatDeps): void {
  const path = '/v3/short-urls/:shortCode/redirect-rules';
  const list = shlinkSchema({
    operationId: 'shlinkListRedirectRules',
    summary: "A short URL's redirect rules (Shlink)",
    description: "Snip's targeting rules, in order, as Shlink's conditions.",
    key: 'header',
    scope: 'links:read',
    params: PARAMS,
    querystring: QUERY,
    ok: { 200: okJson(RULES, 'The rules.') },
    problems: [404],
  });
  app.get(path, { config: keyNeed({ scope: 'links:read' }), schema: list }, async (request) => {
    const { actor } = shlinkCaller(request);
    const address = addressOf(request.params, request.query);
    return rulesOf(await onShortUrl(address, () => deps.links.get(actor, address)));
  });

  const set = shlinkSchema({
    operationId: 'shlinkSetRedirectRules',
    summary: "Set a short URL's redirect rules (Shlink)",
    description: 'Replaces the rules: device, language and geolocation-country-code conditions only.',
    key: 'header',
    scope: 'links:write',
    params: PARAMS,
    querystring: QUERY,
    body: Type.Object({ redirectRules: Type.Array(Type.Object({})) }),
    ok: { 200: okJson(RULES, 'The rules as they are now.') },
    problems: [400, 404],
  });
  app.post(path, { config: keyNeed({ scope: 'links:write' }), schema: set }, async (request) => {
    const { actor } = shlinkCaller(request);
    const address = addressOf(request.params, request.query);
    const rules = snipRules(request.body);
    const link = await onShortUrl(address, () => deps.links.patch(actor, address, { rules }), {
      invalid: ['redirectRules'],
    });
    return rulesOf(link);
  });
}
