import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { LinkResource } from '../../links/index.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { bodyText, Invalid } from './shlink-input.ts';
import { invalidData } from './shlink-problems.ts';
import { type RefusalContext, refusalProblem } from './shlink-refusals.ts';
import { bodyFields, editionFields, type PatchBody } from './short-url-fields.ts';

/**
 * A short URL as Shlink's API names it: its code and `?domain=` (none, `DEFAULT` or the default
 * domain's host: the workspace's default domain). Get, edit and delete answer Shlink's
 * short-url-not-found for a code the workspace has no live link with, on a domain it sees or not.
 */

export interface ShortUrlAddress {
  code: string;
  domain: string | undefined;
}

export function addressOf(params: unknown, query: unknown): ShortUrlAddress {
  const code = String((params as { shortCode?: unknown }).shortCode ?? '');
  const named = (query as Record<string, unknown>).domain;
  const domain = Array.isArray(named) ? named.at(-1) : named;
  return {
    code,
    domain: typeof domain === 'string' && domain !== '' && domain !== 'DEFAULT' ? domain : undefined,
  };
}

export const addressContext = (address: ShortUrlAddress): RefusalContext => ({
  shortCode: address.code,
  domain: address.domain,
  unknownDomain: 'short-url-not-found',
});

/** Runs a links service call for the short URL, its refusals as Shlink's problems. */
export async function onShortUrl<T>(
  address: ShortUrlAddress,
  run: () => Promise<T>,
  context: RefusalContext = {},
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof Refusal
      ? refusalProblem(error, { ...addressContext(address), ...context })
      : error;
  }
}

/** PATCH's body: ShortUrlEdition; null clears the title, validUntil and maxVisits. */
export function readEdit(raw: unknown, now: number): PatchBody {
  const body = bodyFields(raw);
  if (!body) throw invalidData([]);
  const invalid = new Invalid();
  const longUrl = invalid.take('longUrl', bodyText(body, 'longUrl'));
  if (longUrl === null || (typeof longUrl === 'string' && longUrl.trim() === '')) invalid.note('longUrl');
  const fields = editionFields(body, invalid, now);
  invalid.done();
  return { ...(typeof longUrl === 'string' ? { url: longUrl.trim() } : {}), ...fields };
}

export async function editShortUrl(
  deps: CompatDeps,
  actor: Actor,
  address: ShortUrlAddress,
  patch: PatchBody,
): Promise<LinkResource> {
  // Shlink answers an edit that changes nothing with the short URL as it is.
  const changes = Object.values(patch).some((value) => value !== undefined);
  return onShortUrl(
    address,
    () => (changes ? deps.links.patch(actor, address, patch) : deps.links.get(actor, address)),
    { invalid: ['longUrl'] },
  );
}
