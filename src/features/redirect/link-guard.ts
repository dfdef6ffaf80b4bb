import { visitsTaken } from '../../core/link-limits.ts';
import { variantAt, visitorBucket, weightBounds } from '../../core/link-variants.ts';
import type { RedirectLink } from '../../core/ports/link-code-store.ts';
import type { LimitedLink } from '../../core/ports/visit-limits.ts';
import type { RuleCondition } from '../../core/targeting.ts';

/**
 * What the redirect must check of a link with rules (docs/api.md §8.2–8.3), computed once when the
 * link is cached. A link without any has no guard, and the hot path never looks further.
 */
export interface LinkGuard {
  /** Epoch ms from which the link answers 410; null when it never expires. */
  expiresAtMs: number | null;
  limit: LimitedLink | null;
  passwordHash: string | null;
  /** The targeting rules with each URL already as a Location value. */
  rules: ReadonlyArray<{ if: RuleCondition; location: string }>;
  /** No password and no limit: the answer needs nothing but the clock and the request. */
  synchronous: boolean;
  /** Some rule asks for a country. */
  namesCountry: boolean;
  /** An operator disabled the link (docs/api.md §13): it answers 410, nothing else is looked at. */
  disabled: boolean;
  /** Its A/B test's split of the clicks no rule took (docs/api.md §20.x); null: none. */
  split: VariantSplit | null;
}

/** A test's variants as the redirect splits by: their weights' upper bounds and Location values. */
export interface VariantSplit {
  bounds: readonly number[];
  locations: readonly string[];
}

/** The 1-based variant a visitor's hash of the day picks on a link: the same one all day. */
export function variantFor(split: VariantSplit, hash: Uint8Array, linkId: number): number {
  return variantAt(split.bounds, visitorBucket(hash, linkId));
}

export function guardOf(link: RedirectLink): LinkGuard | undefined {
  const limited = link.maxClicks !== null;
  const disabled = Boolean(link.disabled);
  if (
    !disabled &&
    link.expiresAt === null &&
    !limited &&
    link.passwordHash === null &&
    link.rules.length === 0 &&
    !link.test
  ) {
    return undefined;
  }
  return {
    expiresAtMs: link.expiresAt?.getTime() ?? null,
    limit: limited ? { id: link.id, maxClicks: link.maxClicks as number, taken: visitsTaken(link) } : null,
    passwordHash: link.passwordHash,
    rules: link.rules.map((rule) => ({ if: rule.if, location: new URL(rule.url).href })),
    synchronous: link.passwordHash === null && !limited && !disabled,
    namesCountry: link.rules.some((rule) => rule.if.country !== undefined),
    disabled,
    split: link.test
      ? {
          bounds: weightBounds(link.test.variants),
          locations: link.test.variants.map((variant) => new URL(variant.url).href),
        }
      : null,
  };
}
