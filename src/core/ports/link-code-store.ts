import type { Link } from '../entities.ts';

/**
 * What the redirect reads of a link: its target and everything that can change the answer (guards,
 * rules, a test, forwarding, a preview, conversion tracking). An embedded store's look-up at once
 * reads only these columns.
 */
export const REDIRECT_LINK_FIELDS = [
  'id',
  'code',
  'domainId',
  'workspaceId',
  'longUrl',
  'title',
  'clicks',
  'expiresAt',
  'maxClicks',
  'limitUsed',
  'passwordHash',
  'rules',
  'disabled',
  'forwardQuery',
  'preview',
  'tracksConversions',
  'test',
] as const satisfies ReadonlyArray<keyof Link>;
export type RedirectLink = Pick<Link, (typeof REDIRECT_LINK_FIELDS)[number]>;

/**
 * A link by its code on a domain: the code it has, and the former codes a rename left it as
 * aliases (docs/api.md §18). Every code a domain ever had, alias or not, is never issued again there.
 */
export interface LinkCodeStore {
  /**
   * Whether any link on the domain, deleted ones included, ever had this code, as its code or as an
   * alias (never issued twice there).
   */
  isCodeIssued(domainId: number, code: string): Promise<boolean>;
  /** A live link by its domain and code; deleted links are not found. */
  findLinkByCode(domainId: number, code: string): Promise<Link | undefined>;
  /**
   * The same look-up answered at once, on a store embedded in the process (SQLite), of what the
   * redirect reads: it then answers a cold code below the router. Network stores leave it out.
   */
  findLinkByCodeNow?(domainId: number, code: string): RedirectLink | undefined;
  /** The live link a former code on the domain now names (an alias a rename kept), if any. */
  findLinkByAlias(domainId: number, code: string): Promise<Link | undefined>;
  /** The same look-up answered at once, beside findLinkByCodeNow (SQLite). */
  findLinkByAliasNow?(domainId: number, code: string): RedirectLink | undefined;
  /** The former codes of each link, oldest first; links never renamed are absent from the map. */
  aliasesOf(linkIds: readonly number[]): Promise<Map<number, string[]>>;
}
