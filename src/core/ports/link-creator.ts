import type { Actor, Link } from '../entities.ts';
import type { RateState } from '../errors.ts';
import type { LinkRuleFields } from '../link-fields.ts';

/**
 * The link asked for: what a form or a JSON body carries besides the key (docs/api.md §2.1, §7.3).
 * /create names only the url and the group; the management API and the dashboard may name the rest.
 */
export interface LinkDraft extends LinkRuleFields {
  url: string | undefined;
  group: string | undefined;
  /** A custom code instead of a drawn one. */
  slug?: string;
  /** Instead of the target page's title. */
  title?: string;
  tags?: readonly string[];
  clientAddress: string;
}

export interface CreatedLink {
  link: Link;
  /** The window this request spent, for the RateLimit-* of the answer. */
  rate: RateState;
}

/**
 * Creates a link for an account that acts itself (a signed-in dashboard), with every check of
 * /create from the rate limit on. The create feature provides it; app.ts hands it to the pages.
 */
export type CreateLinkFor = (actor: Actor, draft: LinkDraft) => Promise<CreatedLink>;

/** Creates a link for an account whose request already spent its window (the management API). */
export type CreateLinkAs = (actor: Actor, draft: LinkDraft) => Promise<Link>;
