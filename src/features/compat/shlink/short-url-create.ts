import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { checkSlug } from '../../../core/link-fields.ts';
import type { LinkResource } from '../../links/index.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { BAD, bodyText, flag, Invalid, positiveInteger, type Read } from './shlink-input.ts';
import { refusalProblem } from './shlink-refusals.ts';
import { bodyFields, type CreateBody, editionFields } from './short-url-fields.ts';

/**
 * POST /rest/v3/short-urls (and the one-step GET /short-urls/shorten): Shlink's body read into a
 * Snip create, which runs every check of docs/api.md §2.3. Snip keeps one live link per long URL
 * and domain: with `findIfExists` the one there is answered; without it, 409
 * long-url-already-shortened names it (docs/migrating/shlink.md).
 */

export interface CreateAsk {
  body: CreateBody;
  findIfExists: boolean;
}

/** Shlink turns spaces (and slashes) of a custom slug into dashes. */
function slugOf(value: Read<string | null>): Read<string> {
  if (value === undefined || value === null || value === BAD) return value === null ? undefined : value;
  const slug = value.trim().replace(/[ /]/g, '-');
  try {
    return checkSlug(slug);
  } catch (error) {
    // A reserved slug is the service's 313, answered as Shlink's non-unique-slug.
    if (error instanceof Refusal && error.code === '313') return slug;
    if (error instanceof Refusal) return BAD;
    throw error;
  }
}

/** Snip draws 7 characters; Shlink's code length (4 and up) is checked and left aside. */
const codeLength = (value: unknown): Read<number> => {
  const length = positiveInteger(value);
  return typeof length === 'number' && length < 4 ? BAD : length;
};

export function readCreate(raw: unknown, now: number): CreateAsk {
  const body = bodyFields(raw) ?? {};
  const invalid = new Invalid();
  const longUrl = invalid.take('longUrl', bodyText(body, 'longUrl'));
  if (!longUrl?.trim()) invalid.note('longUrl');
  const slug = invalid.take('customSlug', slugOf(bodyText(body, 'customSlug')));
  const domain = invalid.take('domain', bodyText(body, 'domain'));
  const prefix = invalid.take('pathPrefix', bodyText(body, 'pathPrefix'));
  // Snip's codes have no prefix: one it would leave out is refused.
  if (prefix?.trim()) invalid.note('pathPrefix');
  invalid.take('shortCodeLength', codeLength(body.shortCodeLength));
  const findIfExists = invalid.take('findIfExists', flag(body.findIfExists)) ?? false;
  const fields = editionFields(body, invalid, now);
  invalid.done();
  return {
    body: {
      url: longUrl?.trim(),
      slug,
      domain: domain?.trim() || undefined,
      ...fields,
      max_clicks: fields.max_clicks ?? undefined,
      // Shlink forwards the short URL's query unless told not to.
      forward_query: fields.forward_query ?? true,
    },
    findIfExists,
  };
}

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

/** The link a refused create asked for after all, when `findIfExists` lets it be the answer. */
async function existingFor(
  deps: CompatDeps,
  actor: Actor,
  ask: CreateAsk,
  refusal: Refusal,
): Promise<LinkResource | undefined> {
  if (!ask.findIfExists) return undefined;
  const { existingCode, existingDomainId } = refusal.facts;
  if (refusal.code === '305' && existingCode !== undefined && existingDomainId !== undefined) {
    // A slug other than the existing link's code asks for a second link, which Snip never makes.
    if (ask.body.slug !== undefined && ask.body.slug !== existingCode) return undefined;
    return deps.links.get(actor, { code: existingCode, domain: deps.origins.hostOf(existingDomainId) });
  }
  if (refusal.code === '313' && ask.body.slug !== undefined) {
    const found = await deps.links
      .get(actor, { code: ask.body.slug, domain: ask.body.domain })
      .catch(() => undefined);
    return found && sameUrl(found.long_url, ask.body.url ?? '') ? found : undefined;
  }
  return undefined;
}

export async function createShortUrl(
  deps: CompatDeps,
  actor: Actor,
  ask: CreateAsk,
  clientAddress: string,
): Promise<LinkResource> {
  try {
    return await deps.links.create(actor, ask.body, clientAddress);
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    const existing = await existingFor(deps, actor, ask, error);
    if (existing) return existing;
    throw refusalProblem(error, {
      customSlug: ask.body.slug,
      domain: ask.body.domain,
      invalid: ['longUrl'],
      unknownDomain: 'invalid-data',
    });
  }
}
