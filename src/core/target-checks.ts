import { API_ERRORS, Refusal } from './errors.ts';
import type { CheckedRuleFields } from './link-fields.ts';
import type { Inspector } from './ports/inspector.ts';
import type { SocialMatcher } from './social.ts';
import { parseTargetUrl, pointsAtOwnHost, stripTrailingDot, type TargetUrl } from './target-url.ts';
import { URL_FAULT_MESSAGE, urlFault } from './url-input.ts';

/** The checks a link's target passes wherever a link is made or changed (docs/api.md §2.3, §7.3). */

/** The url as an absolute http(s) URL (300 otherwise, its message naming the cause: docs/api.md §18). */
export function targetOrRefuse(url: string): TargetUrl {
  const target = parseTargetUrl(url);
  if (!target) throw new Refusal('300', URL_FAULT_MESSAGE[urlFault(url) ?? 'malformed']);
  return target;
}

/** The host lists a target is checked against, in this order: social networks (310), blocklists (316). */
export interface HostLists {
  isSocial: SocialMatcher;
  /** The host, or one of its parent domains, is on an operator's blocklist (docs/api.md §13). */
  isBlocked?: (host: string) => boolean;
}

/** A target's host on a list is refused: 310 for a social network, then 316 for a blocklist. */
export function refuseListedHost(hostname: string, lists: HostLists, of?: 'rule' | 'variant'): void {
  if (lists.isSocial(hostname))
    throw new Refusal('310', of ? `A ${of} links to a social network.` : undefined);
  if (lists.isBlocked?.(hostname))
    throw new Refusal('316', of ? `A ${of}’s target is on a blocklist.` : undefined);
}

/** The 305 of a URL pointing at this shortener, told apart from a duplicate's by this message. */
export const OWN_HOST_MESSAGE = 'The URL points at this shortener.';

/** A link to this shortener itself would loop (305). */
export function refuseOwnHost(target: TargetUrl, baseUrl: URL, isOwnHost?: (host: string) => boolean): void {
  const own =
    pointsAtOwnHost(target.parsed, baseUrl) || isOwnHost?.(stripTrailingDot(target.parsed.hostname)) === true;
  if (own) throw new Refusal('305', OWN_HOST_MESSAGE);
}

/** The target page fetched and judged (306–311); its title when it passes. */
export async function inspectOrRefuse(inspector: Inspector, target: TargetUrl): Promise<string> {
  const outcome = await inspector.inspect(target.parsed);
  if (!outcome.ok) throw new Refusal(outcome.code, `${API_ERRORS[outcome.code]} (${outcome.reason})`);
  return outcome.title;
}

type Targets = Pick<CheckedRuleFields, 'rules' | 'variants'>;

/**
 * A rule's URL, then a test variant's, passes the checks of `url` (docs/api.md §8.3, §20): not
 * listed (310, 316), not Snip (305).
 */
export function refuseRuleTargets(
  checked: Targets,
  lists: HostLists,
  baseUrl: URL,
  isOwnHost?: (host: string) => boolean,
): void {
  for (const [of, list] of [
    ['rule', checked.rules],
    ['variant', checked.variants],
  ] as const) {
    for (const { target } of list ?? []) {
      refuseListedHost(target.parsed.hostname, lists, of);
      refuseOwnHost(target, baseUrl, isOwnHost);
    }
  }
}

/** Each rule's target, then each variant's, fetched and judged in turn (306–311), after the link's own. */
export async function inspectRuleTargets(inspector: Inspector, checked: Targets): Promise<void> {
  for (const { target } of [...(checked.rules ?? []), ...(checked.variants ?? [])]) {
    await inspectOrRefuse(inspector, target);
  }
}
