/**
 * The request as YOURLS reads it: `$_REQUEST`, the query string and the form together, the form
 * winning (PHP's request_order "GP"). A parameter is one string; a repeated one is its last value,
 * as PHP keeps it, and anything else (a file, a JSON object) counts as not sent.
 */

export type YourlsParams = ReadonlyMap<string, string>;

function lastString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return lastString(value.at(-1));
  return undefined;
}

function addFields(into: Map<string, string>, source: unknown): void {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return;
  for (const [name, value] of Object.entries(source)) {
    const text = lastString(value);
    if (text !== undefined) into.set(name, text);
  }
}

export function yourlsParams(query: unknown, body: unknown): YourlsParams {
  const params = new Map<string, string>();
  addFields(params, query);
  addFields(params, body);
  return params;
}

/** PHP's empty() of a request string: absent, "" and "0". */
export function isEmpty(value: string | undefined): boolean {
  return value === undefined || value === '' || value === '0';
}

/**
 * PHP's intval() of a request string: the leading number ("12abc" is 12, "1e3" is 1000, "abc" is 0),
 * then held within [min, max] so a huge or negative value cannot reach the store.
 */
export function intParam(value: string | undefined, min: number, max: number): number {
  const leading = /^\s*[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(value ?? '');
  const number = leading ? Math.trunc(Number(leading[0])) : 0;
  if (!Number.isFinite(number)) return number > 0 ? max : min;
  return Math.min(max, Math.max(min, number));
}
