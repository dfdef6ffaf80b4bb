import type { Actor, Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { LINK_CODE_PATTERN } from '../../../core/short-code.ts';
import { shortUrl } from '../../../core/short-url.ts';
import type { CompatDeps } from '../compat-deps.ts';
import type { YourlsMembers } from './yourls-encode.ts';
import type { YourlsParams } from './yourls-params.ts';

/** Links as YOURLS shows them, and the short URL (or bare keyword) its calls name one by. */

/** What one action is given. */
export interface YourlsCall {
  deps: CompatDeps;
  params: YourlsParams;
  actor: Actor;
  clientAddress: string;
}

/** YOURLS's `ip` (the maker's address): Snip keeps no address of whoever made a link. */
export const NO_ADDRESS = '';

/** A MySQL DATETIME as YOURLS shows it, in UTC. */
export function dateText(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/** yourls_trim_long_string: at most 60 characters, the cut marked with [...]. */
export function trimLong(text: string): string {
  const chars = [...text];
  return chars.length > 60 ? `${chars.slice(0, 55).join('')}[...]` : text;
}

/** A link's row as the stats answers list it. */
export function linkRow(deps: Pick<CompatDeps, 'origins'>, link: Link): YourlsMembers {
  return {
    shorturl: shortUrl(deps.origins, link),
    url: link.longUrl,
    title: link.title,
    timestamp: dateText(link.createdAt),
    ip: NO_ADDRESS,
    clicks: link.clicks,
  };
}

/**
 * The keyword a `shorturl` parameter names ("abc" or "https://sho.rt/abc", as YOURLS accepts both)
 * and the workspace's live link by it: a bare keyword is on the workspace's default domain, a short
 * URL on the domain of its host, when the workspace sees that domain.
 */
export async function findLink(
  call: YourlsCall,
  shorturl: string,
): Promise<{ keyword: string; link?: Link }> {
  const { deps, actor } = call;
  let keyword = shorturl;
  let host: string | undefined;
  if (/^https?:\/\//i.test(shorturl) && URL.canParse(shorturl)) {
    const url = new URL(shorturl);
    host = url.host;
    keyword = url.pathname.slice(1);
    try {
      keyword = decodeURIComponent(keyword);
    } catch {
      return { keyword };
    }
  }
  if (!LINK_CODE_PATTERN.test(keyword)) return { keyword };
  let domainId: number;
  try {
    domainId = deps.domainOf(actor.workspaceId, host);
  } catch (error) {
    if (error instanceof Refusal) return { keyword };
    throw error;
  }
  return { keyword, link: await deps.store.findLinkOfWorkspace(actor.workspaceId, domainId, keyword) };
}
