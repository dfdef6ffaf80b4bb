import type { Actor, Link } from '../entities.ts';
import type { RateState } from '../errors.ts';
import type { LinkRuleFields } from '../link-fields.ts';

/** What a change of a link names; what it leaves out stays as it is (docs/api.md §7.3 PATCH). */
export interface LinkPatch extends LinkRuleFields {
  /** A new target, checked as on create (300, 310, 305, 306–311). */
  url?: string;
  title?: string;
  /** A group's ID or API identifier; null takes the link out of its group. */
  group?: string | null;
  tags?: readonly string[];
}

/**
 * Changes and deletes an account's links with the checks of creating them, and tells every instance.
 * Refusals: 314 when the account has no such live link, then those of the fields changed. A refused
 * change changes nothing.
 */
export interface LinkEditor {
  edit(accountId: number, code: string, patch: LinkPatch): Promise<Link>;
  /** Soft delete: the code answers 404 everywhere and is never issued again. */
  remove(accountId: number, code: string): Promise<void>;
  /** The dashboard: the signed-in account changes a link in the window its keys spend. */
  editFor(actor: Actor, code: string, patch: LinkPatch): Promise<{ link: Link; rate: RateState }>;
}
