import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import { Refusal, UnavailableError } from '../../core/errors.ts';
import { campaignUrl } from '../../core/link-campaign.ts';
import { parseTargetUrl, stripTrailingDot } from '../../core/target-url.ts';
import { apiCodeOf } from '../../http/api-errors.ts';
import { API_STATUS } from '../../http/api-statuses.ts';
import { STATUS_CODES } from '../../http/node-http.ts';
import type { Problem } from '../../http/problem.ts';
import { lazyValidator } from '../../http/shared-compilers.ts';
import {
  CodeParams,
  CreateLinkBody,
  type CreateLinkBodyType,
  PatchLinkBody,
  type PatchLinkBodyType,
} from './api/link-schemas.ts';

/**
 * What one item of a bulk request must be (docs/api.md §16), checked item by item so that one bad
 * item is refused at its index (300) and the others still answer; and how an item's failure reads.
 */

/** Items (or codes) of one bulk request at most; more is a malformed request (300). */
export const MAX_BULK_ITEMS = 100;

/** A bulk body may be larger than a single request's 64 KiB: up to 100 link bodies. */
export const BULK_BODY_BYTES = 1024 * 1024;

// A CommonJS module whose types name its function `default`; at run time the module is the function.
const addFormats = formats as unknown as typeof formats.default;

let ajv: Ajv | undefined;

/** As strict as fastify's body validation in /api/v1 (http/api-validation.ts): no coercion, no removal. */
function strictAjv(): Ajv {
  if (ajv === undefined) {
    ajv = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: true });
    addFormats(ajv);
  }
  return ajv;
}

/**
 * A bulk check compiled by the first bulk request, not at start: ~0.14 s of a server's start CPU for
 * requests most servers never get (docs/adr/053).
 */
export const strictCheck = <T>(schema: object) =>
  lazyValidator(() => strictAjv().compile(schema)) as ValidateFunction<T>;

const createBody = strictCheck<CreateLinkBodyType>(CreateLinkBody);
const patchBody = strictCheck<PatchLinkBodyType>(PatchLinkBody);
const codeParam = strictCheck<string>(CodeParams.properties.code);

function checked<T>(check: ValidateFunction<T>, value: unknown, where: string): T {
  if (check(value)) return value;
  const [first] = check.errors ?? [];
  const detail = first
    ? `${where}${first.instancePath} ${first.message ?? 'is invalid'}`
    : `${where} is invalid`;
  throw new Refusal('300', `The ${detail}.`);
}

/** An item of a bulk create: the body of POST /api/v1/links (300 otherwise). */
export const createBodyOf = (value: unknown): CreateLinkBodyType => checked(createBody, value, 'item');

/** The change of a bulk edit: the body of PATCH /api/v1/links/{code} (300 otherwise). */
export const changeOf = (value: unknown): PatchLinkBodyType => checked(patchBody, value, 'change');

/** A code of a bulk edit or delete: a string as the path of a single request names it (300 otherwise). */
export function codeOf(value: unknown): string {
  const code = checked(codeParam, value, 'code');
  if (code === '') throw new Refusal('300', 'The code is empty.');
  return code;
}

/** The target a url (with its utm) names, or undefined where the item will be refused for it anyway. */
function targetOf(url: string | undefined, utm: unknown) {
  if (url === undefined) return undefined;
  try {
    return parseTargetUrl(campaignUrl(url, utm));
  } catch {
    return undefined;
  }
}

/** The host whose fetches an item counts against (BULK_SLOTS.perHost). */
export function targetHost(url: string | undefined, utm: unknown): string | undefined {
  const target = targetOf(url, utm);
  return target ? stripTrailingDot(target.parsed.hostname) : undefined;
}

/**
 * What two items of one bulk create must not race for: the same target or the same slug on the same
 * domain. An item waits for the earlier items that share one, so the earlier one wins and the later
 * one reads 305 or 313, whatever the order their inspections end in.
 */
export function contendedKeys(body: CreateLinkBodyType): string[] {
  const domain = (body.domain ?? '').trim().toLowerCase();
  const target = targetOf(body.url, body.utm);
  return [
    ...(target ? [`url ${domain} ${target.normalized}`] : []),
    ...(body.slug === undefined ? [] : [`slug ${domain} ${body.slug.trim()}`]),
  ];
}

/** An item's refusal, as a problem object with Snip's numbered code (what sendProblem writes). */
export type BulkProblem = Problem & { type: string };

const problem = (status: number, code: string, detail: string): BulkProblem => ({
  type: 'about:blank',
  title: STATUS_CODES[status] ?? 'Error',
  status,
  detail,
  code,
});

/**
 * An item's error as the item's own problem, as /api/v1 answers the same failure of a single request:
 * a refusal's code and status; 503 when the store or shared state did not answer; else 500, a fault
 * (`fault` true: the caller logs it).
 */
export function itemProblem(error: unknown): { problem: BulkProblem; fault: boolean } {
  if (error instanceof Refusal) {
    const code = apiCodeOf(error);
    const wait = error.facts.retryAfterSeconds;
    // An item has no headers of its own: when to retry goes into its detail.
    const detail = wait === undefined ? error.message : `${error.message} Retry after ${wait} s.`;
    if (code) return { problem: problem(API_STATUS[code], code, detail), fault: false };
  }
  if (error instanceof UnavailableError) {
    const detail = `A service Snip depends on cannot answer right now; retry in ${error.retryAfterSeconds} s.`;
    return { problem: problem(503, '503', detail), fault: false };
  }
  return { problem: problem(500, '500', 'Something went wrong on our side; try again.'), fault: true };
}
