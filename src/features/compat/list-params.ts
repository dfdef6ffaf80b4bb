import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * List parameters as the clients of the compatibility APIs send them (docs/api.md §15):
 * `tags[]=a&tags[]=b` (Shlink's JS client), `tags[0]=a&tags[1]=b` (PHP's http_build_query, so
 * Shlink's PHP SDK) and `tags=a&tags=b`, in the query and in a form, all read as `tags: [a, b]`.
 * Values are numbered as PHP numbers them (the index given, else one past the highest so far)
 * and listed by number, in the order they came where two share one: `tags[1]=b&tags[0]=a` is
 * a, b; `tags[0]=a&tags[]=b&tags=c` is a, b, c. Only the names an API reads as lists are folded:
 * any other name keeps the reading its API gives it (a PHP array is no string: `action[]=` is not
 * YOURLS's action). fastify's query parser leaves `tags[0]` a name of its own, and changing it for
 * the whole app would change /api/v1 too, so the compatibility scopes fold their own input.
 * Shlink's listing and tags take lists; Kutt's API v2 and YOURLS's API take none (every parameter
 * of theirs is one value), so only the Shlink scope folds today.
 */

/** Values under one name at most; PHP keeps 1,000 input variables in all (max_input_vars). */
export const MAX_LIST_VALUES = 1000;

/** A list name with brackets that are not `[]` or `[digits]`, or with too many values. */
export interface BadListParam {
  /** The parameter as its API names it: the part before the brackets. */
  name: string;
  reason: string;
}

type Fields = Record<string, unknown>;
type Folded = { fields: Fields } | { bad: BadListParam };
type Entries = Iterable<readonly [string, unknown]>;

const LIST_KEY = /^([^[\]]+)\[(\d{0,9})\]$/;

/** The name a key is about: `tags` of `tags`, `tags[]`, `tags[0]` and `tags[x]`. */
const baseOf = (key: string) => key.split('[')[0] as string;

interface Collected {
  values: Array<{ index: number; value: unknown }>;
  next: number;
  /** Given with brackets or more than once: a list even when it holds one value. */
  list: boolean;
}

function collect(names: Map<string, Collected>, key: string, value: unknown): BadListParam | undefined {
  const bracketed = key.includes('[') || key.includes(']');
  const match = bracketed ? LIST_KEY.exec(key) : undefined;
  const name = baseOf(key);
  if (match === null) return { name, reason: `${key} is not a list entry: use ${name}[]= or ${name}[0]=` };
  const given = match?.[2] ? Number(match[2]) : undefined;
  const collected = names.get(name) ?? { values: [], next: 0, list: false };
  names.set(name, collected);
  collected.list ||= bracketed || collected.values.length > 0;
  for (const one of Array.isArray(value) ? value : [value]) {
    const index = given ?? collected.next;
    collected.next = Math.max(collected.next, index + 1);
    collected.values.push({ index, value: one });
  }
  if (collected.values.length > MAX_LIST_VALUES) {
    return { name, reason: `${name} holds more than ${MAX_LIST_VALUES} values` };
  }
  return undefined;
}

/**
 * `others` with the entries of the list names folded in: one list per name, or one string for
 * a lone plain value, so that a list of one reads as it did.
 */
export function foldListParams(entries: Entries, lists: ReadonlySet<string>, others: Fields = {}): Folded {
  const names = new Map<string, Collected>();
  for (const [key, value] of entries) {
    if (!lists.has(baseOf(key))) continue;
    const bad = collect(names, key, value);
    if (bad) return { bad };
  }
  // No prototype: a parameter named __proto__ is one more name.
  const fields: Fields = Object.create(null);
  for (const [key, value] of Object.entries(others)) if (!lists.has(baseOf(key))) fields[key] = value;
  for (const [name, { values, list }] of names) {
    // Array.prototype.sort is stable: values that share a number keep the order they came in.
    const ordered = values.sort((a, b) => a.index - b.index).map(({ value }) => value);
    fields[name] = list || ordered.length > 1 ? ordered : ordered[0];
  }
  return { fields };
}

const asFields = (value: unknown): Fields | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;

/** A form body: parsed to an object already, its names in the order they first came. */
const isForm = (request: FastifyRequest) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(request.headers['content-type'] ?? '');

/**
 * Folds the list parameters `lists` of every request of the scope, in the query and in a form,
 * before its routes read them; a bad one is refused with the error `refuse` makes, in the
 * scope's own form. The query is read again as it came, so values keep their order across
 * spellings; a form is read from its parsed fields, each name's values in order.
 */
export function foldListParamsOf(
  scope: FastifyInstance,
  lists: ReadonlySet<string>,
  refuse: (bad: BadListParam, part: 'query' | 'body') => Error,
): void {
  scope.addHook('preValidation', async (request) => {
    const parsed = asFields(request.query) ?? {};
    if (Object.keys(parsed).some((key) => lists.has(baseOf(key)))) {
      const raw = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1));
      const query = foldListParams(raw, lists, parsed);
      if ('bad' in query) throw refuse(query.bad, 'query');
      request.query = query.fields;
    }
    const body = asFields(request.body);
    if (!body || !isForm(request)) return;
    const form = foldListParams(Object.entries(body), lists, body);
    if ('bad' in form) throw refuse(form.bad, 'body');
    request.body = form.fields;
  });
}
