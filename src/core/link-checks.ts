import type { Group, LinkGuards } from './entities.ts';
import { API_ERRORS, Refusal } from './errors.ts';
import type { CheckedRuleFields } from './link-fields.ts';
import { hashPassword } from './password.ts';
import type { Inspector } from './ports/inspector.ts';
import type { GroupStore } from './ports/store.ts';
import type { SocialMatcher } from './social.ts';
import { parseTargetUrl, pointsAtOwnHost, type TargetUrl } from './target-url.ts';

/** The checks a link's target and group pass wherever a link is made or changed (docs/api.md §2.3, §7.3). */

/** The url as an absolute http(s) URL (300 otherwise). */
export function targetOrRefuse(url: string): TargetUrl {
  const target = parseTargetUrl(url);
  if (!target)
    throw new Refusal('300', 'The url must be an absolute http(s) URL of at most 2,048 characters.');
  return target;
}

/** A link to this shortener itself would loop (305). */
export function refuseOwnHost(target: TargetUrl, baseUrl: URL): void {
  if (pointsAtOwnHost(target.parsed, baseUrl)) throw new Refusal('305', 'The URL points at this shortener.');
}

/** The target page fetched and judged (306–311); its title when it passes. */
export async function inspectOrRefuse(inspector: Inspector, target: TargetUrl): Promise<string> {
  const outcome = await inspector.inspect(target.parsed);
  if (!outcome.ok) throw new Refusal(outcome.code, `${API_ERRORS[outcome.code]} (${outcome.reason})`);
  return outcome.title;
}

/** A group named by its numeric ID or its API identifier (312 when the account has none such). */
export async function groupOrRefuse(
  store: Pick<GroupStore, 'findGroupOfAccount'>,
  accountId: number,
  ref: string,
): Promise<Group> {
  const wanted = ref.trim();
  const group = /^\d{1,15}$/.test(wanted)
    ? await store.findGroupOfAccount(accountId, { id: Number(wanted) })
    : await store.findGroupOfAccount(accountId, { apiId: wanted.toLowerCase() });
  if (!group) throw new Refusal('312');
  return group;
}

type CheckedRules = NonNullable<CheckedRuleFields['rules']>;

/** A rule's URL passes the checks of `url` (docs/api.md §8.3): not a social network (310), not Snip (305). */
export function refuseRuleTargets(
  rules: CheckedRules | undefined,
  isSocial: SocialMatcher,
  baseUrl: URL,
): void {
  for (const rule of rules ?? []) {
    if (isSocial(rule.target.parsed.hostname)) throw new Refusal('310', 'A rule links to a social network.');
    refuseOwnHost(rule.target, baseUrl);
  }
}

/** Each rule's target fetched and judged in turn (306–311), after the link's own. */
export async function inspectRuleTargets(
  inspector: Inspector,
  rules: CheckedRules | undefined,
): Promise<void> {
  for (const rule of rules ?? []) await inspectOrRefuse(inspector, rule.target);
}

/** What is stored of checked rule fields: the password only as its hash. */
export async function guardsOf(checked: CheckedRuleFields): Promise<LinkGuards> {
  const guards: LinkGuards = {};
  if (checked.expiresAt !== undefined) guards.expiresAt = checked.expiresAt;
  if (checked.maxClicks !== undefined) guards.maxClicks = checked.maxClicks;
  if (checked.password !== undefined) {
    guards.passwordHash = checked.password === null ? null : await hashPassword(checked.password);
  }
  if (checked.rules !== undefined)
    guards.rules = checked.rules.map((rule) => ({ if: rule.if, url: rule.url }));
  return guards;
}
