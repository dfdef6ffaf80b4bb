import type { Actor, Link } from '../entities.ts';
import type { RateState } from '../errors.ts';

/** The link asked for: what a form or a JSON body carries besides the key (docs/api.md §2.1). */
export interface LinkDraft {
  url: string | undefined;
  group: string | undefined;
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
