import type { Actor, Link } from '../../core/entities.ts';
import type { RateState } from '../../core/errors.ts';
import type { LinkRuleFields } from '../../core/link-fields.ts';

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
  /** UTM parameters written into the URL's query (docs/api.md §16; core/link-campaign.ts checks them). */
  utm?: unknown;
  /** The host of the domain it goes on (docs/api.md §12); the workspace's default when absent. */
  domain?: string;
  /** Its stats page is shown to anyone at /<code>+ (docs/api.md §19); false when absent. */
  publicStats?: boolean;
  clientAddress: string;
}

/** The domains links go on (features/domains provides them, docs/api.md §12). */
export interface LinkDomains {
  /** The domain a new link of the workspace goes on: the one named, or its default (317 otherwise). */
  forNewLink(workspaceId: number, domain: string | undefined): Promise<number>;
  /** A host Snip serves links on: a link to it would loop (305). */
  isOwnHost(host: string): boolean;
}

export interface CreatedLink {
  link: Link;
  /** The window this request spent, for the RateLimit-* of the answer. */
  rate: RateState;
}

/**
 * Creates a link for an account that acts itself (a signed-in dashboard), with every check of
 * /create from the rate limit on. The create service provides it (`forWorkspace`) to the dashboard.
 */
export type CreateLinkFor = (actor: Actor, draft: LinkDraft) => Promise<CreatedLink>;

/** Creates a link for an account whose request already spent its window (the management API). */
export type CreateLinkAs = (actor: Actor, draft: LinkDraft) => Promise<Link>;

/** What a change of a link names; what it leaves out stays as it is (docs/api.md §7.3 PATCH). */
export interface LinkPatch extends LinkRuleFields {
  /** A new target, checked as on create (300, 310, 305, 306–311). */
  url?: string;
  title?: string;
  /** A group's ID or API identifier; null takes the link out of its group. */
  group?: string | null;
  tags?: readonly string[];
  /** Written into the new url's query, or the link's current one when no url is given. */
  utm?: unknown;
  /** true hides the link from the default list; it keeps redirecting and counting. */
  archived?: boolean;
  /** true shows its stats page to anyone at /<code>+ (docs/api.md §19); false hides it again. */
  publicStats?: boolean;
  /** A new code on the link's domain (300, 313); the old one stays the link's alias. */
  slug?: string;
}

/**
 * Changes and deletes an account's links with the checks of creating them, and tells every instance.
 * Refusals: 314 when the account has no such live link, then those of the fields changed. A refused
 * change changes nothing.
 */
export interface LinkEditor {
  edit(workspaceId: number, domainId: number, code: string, patch: LinkPatch): Promise<Link>;
  /** Soft delete: the code answers 404 everywhere and is never issued again. */
  remove(workspaceId: number, domainId: number, code: string): Promise<void>;
  /** The dashboard: the signed-in account changes a link in the window its keys spend. */
  editFor(
    actor: Actor,
    domainId: number,
    code: string,
    patch: LinkPatch,
  ): Promise<{ link: Link; rate: RateState }>;
}
