import type { EventFilter } from './model.ts';
import { hostsOfSource, sourceNamed } from './referrer-sources.ts';
import { UTM_VALUE_MAX } from './utm.ts';

/**
 * The filters of a stats query (docs/api.md §19): each given one must hold. Checked here, without
 * the store: `group` and `domain` are named as the API names them and resolved by the caller.
 */

export const EVENT_FILTERS = [
  'country',
  'device',
  'os',
  'browser',
  'language',
  'referrer',
  'source',
] as const;
export const UTM_FILTERS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
/** Filters only the workspace's answer takes (a link's `domain` names the link's own domain). */
export const WORKSPACE_FILTERS = ['group', 'tag', 'domain'] as const;
export const FILTERS = [...EVENT_FILTERS, ...UTM_FILTERS, ...WORKSPACE_FILTERS] as const;
export type FilterName = (typeof FILTERS)[number];

export type GivenFilters = Partial<Record<FilterName, string>>;

export type ParsedFilters =
  | { kind: 'ok'; filters: GivenFilters }
  | { kind: 'invalid'; field: FilterName; reason: string };

// Printable text without control characters.
const PLAIN = /^[^\p{Cc}]+$/u;
const HOST = /^[a-z0-9]([a-z0-9._:[\]-]{0,252})$/;

type Check = (value: string) => string | undefined;
const text =
  (max: number): Check =>
  (value) => {
    const trimmed = value.trim();
    return trimmed.length > 0 && trimmed.length <= max && PLAIN.test(trimmed) ? trimmed : undefined;
  };
const oneOf =
  (...values: string[]): Check =>
  (value) =>
    values.includes(value) ? value : undefined;

const CHECKS: Record<FilterName, { check: Check; reason: string }> = {
  country: {
    check: (value) => (/^[A-Za-z]{2}$/.test(value) ? value.toUpperCase() : undefined),
    reason: 'an ISO 3166-1 alpha-2 code (ZZ: unknown)',
  },
  device: {
    check: oneOf('desktop', 'mobile', 'tablet', 'other'),
    reason: 'desktop, mobile, tablet or other',
  },
  os: { check: text(64), reason: 'an OS family, at most 64 characters' },
  browser: { check: text(64), reason: 'a browser family, at most 64 characters' },
  language: {
    check: (value) => (/^[A-Za-z]{1,8}$/.test(value) ? value.toLowerCase() : undefined),
    reason: 'a primary language subtag (unknown: none)',
  },
  referrer: {
    check: (value) => {
      const named = sourceNamed(value.trim());
      if (named) return named;
      const host = value.trim().toLowerCase();
      return HOST.test(host) ? host : undefined;
    },
    reason: 'a referrer host, direct, or a source name',
  },
  source: { check: oneOf('link', 'qr'), reason: 'link or qr' },
  utm_source: { check: text(UTM_VALUE_MAX), reason: `at most ${UTM_VALUE_MAX} characters` },
  utm_medium: { check: text(UTM_VALUE_MAX), reason: `at most ${UTM_VALUE_MAX} characters` },
  utm_campaign: { check: text(UTM_VALUE_MAX), reason: `at most ${UTM_VALUE_MAX} characters` },
  group: { check: text(64), reason: "a group's ID or API identifier" },
  tag: { check: text(100), reason: 'a tag, at most 100 characters' },
  domain: {
    check: (value) => (HOST.test(value.trim().toLowerCase()) ? value.trim().toLowerCase() : undefined),
    reason: 'a host',
  },
};

/** The filters a query gives; `allowed` names those this answer takes (the rest are not read). */
export function parseStatsFilters(
  query: Record<string, unknown>,
  allowed: readonly FilterName[] = FILTERS,
): ParsedFilters {
  const filters: GivenFilters = {};
  for (const name of allowed) {
    const raw = query[name];
    if (raw === undefined) continue;
    const value = typeof raw === 'string' ? CHECKS[name].check(raw) : undefined;
    if (value === undefined)
      return { kind: 'invalid', field: name, reason: `${name} is ${CHECKS[name].reason}` };
    filters[name] = value;
  }
  return { kind: 'ok', filters };
}

/** What the store matches: the given filters, with the group's and domain's ids resolved. */
export function eventFilterOf(
  given: GivenFilters,
  ids: { groupId?: number; domainId?: number } = {},
): EventFilter {
  const filter: EventFilter = { equal: {}, utm: {} };
  for (const name of EVENT_FILTERS) {
    const value = given[name];
    if (value === undefined) continue;
    const source = name === 'referrer' ? sourceNamed(value) : undefined;
    if (source) filter.referrerSource = hostsOfSource(source);
    else filter.equal[name] = value;
  }
  for (const name of UTM_FILTERS) if (given[name] !== undefined) filter.utm[name] = given[name];
  if (given.tag !== undefined) filter.tag = given.tag;
  if (ids.groupId !== undefined) filter.groupId = ids.groupId;
  if (ids.domainId !== undefined) filter.domainId = ids.domainId;
  return filter;
}
