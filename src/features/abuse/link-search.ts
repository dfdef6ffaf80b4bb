import { ruleHost } from '../../core/blocklist-format.ts';
import type { LinkSearch } from '../../core/ports/abuse-store.ts';
import { isLinkCode } from '../../core/short-code.ts';
import { parseTargetUrl } from '../../core/target-url.ts';

/**
 * What the operator typed into the console's link search, as the store asks it (docs/api.md §13):
 * a short URL of this Snip or a bare code → that code on any domain (the code index); an http(s)
 * URL → links whose normalized URL starts with it; a host → links to that host over http or https,
 * any port (ranges of the normalized-URL index). Undefined when it is none of these.
 */
export function linkSearchOf(text: string, isOwnHost: (host: string) => boolean): LinkSearch | undefined {
  const typed = text.trim();
  if (typed === '') return undefined;
  if (/^https?:\/\//i.test(typed)) {
    const url = URL.parse(typed);
    const code = url?.pathname.slice(1) ?? '';
    if (url && isOwnHost(url.host) && isLinkCode(code)) return { code };
    const target = parseTargetUrl(typed);
    return target ? { urlPrefixes: [target.normalized] } : undefined;
  }
  if (typed.includes('.') && !/[\s/]/.test(typed)) {
    const host = ruleHost(typed);
    if (!host) return undefined;
    return {
      urlPrefixes: ['http', 'https'].flatMap((scheme) => [`${scheme}://${host}/`, `${scheme}://${host}:`]),
    };
  }
  return isLinkCode(typed) ? { code: typed } : undefined;
}
