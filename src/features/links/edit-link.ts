import type { Link } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { campaignUrl } from '../../core/link-campaign.ts';
import { checkLinkRules, checkSlug, checkTags, checkTitle, guardsOf } from '../../core/link-fields.ts';
import { linkKey } from '../../core/link-key.ts';
import { testAfter } from '../../core/link-variants.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import type { GroupStore, LinkStore, LinkUpdate } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { spendWindow, workspaceRateWindow } from '../../core/rate-window.ts';
import type { SocialMatcher } from '../../core/social.ts';
import {
  inspectOrRefuse,
  inspectRuleTargets,
  refuseListedHost,
  refuseOwnHost,
  refuseRuleTargets,
  targetOrRefuse,
} from '../../core/target-checks.ts';
import { type TargetUrl, urlHash } from '../../core/target-url.ts';
import { groupOrRefuse } from '../groups/index.ts';
import type { LinkDomains, LinkEditor, LinkPatch } from './link-requests.ts';

export interface EditLinkDeps {
  store: Pick<GroupStore, 'findGroupOfWorkspace'> &
    Pick<LinkStore, 'findLinkOfWorkspace' | 'findLiveLinkByUrlHash' | 'updateLink' | 'deleteLink'>;
  inspector: Inspector;
  isSocial: SocialMatcher;
  /** The workspace is suspended by an operator (docs/api.md §13): it makes and changes nothing (303). */
  isSuspended?: (workspaceId: number) => boolean;
  /** The operators' blocklists (docs/api.md §13); none by default. */
  isBlocked?: (host: string) => boolean;
  baseUrl: URL;
  domains: Pick<LinkDomains, 'isOwnHost'>;
  /** Every instance drops the code from its cache (Redis pub/sub), this one at once. */
  linkEvents: Pick<LinkEvents, 'changed'>;
  /** The dashboard's window. */
  counter: WindowCounter;
  now?: () => number;
  /** Makes link.updated and link.deleted in the change's transaction (docs/api.md §14). */
  events?: LinkEventSink;
}

const noSuchLink = () => new Refusal('314', 'This account has no live link with that code.');
const codeTaken = () => new Refusal('313', 'A link has had this code; codes are never issued twice.');
const duplicateOf = (holder: Link) =>
  new Refusal('305', undefined, { existingCode: holder.code, existingDomainId: holder.domainId });

/** Changing a link (docs/api.md §7.3): the fields checked in the order of creating one, then one update. */
export function linkEditor(deps: EditLinkDeps): LinkEditor {
  const now = deps.now ?? Date.now;

  /** A new target is refused as on create (310, 305); the one the link has already is no change. */
  async function newTarget(link: Link, target: TargetUrl) {
    if (target.normalized === link.normalizedUrl && target.longUrl === link.longUrl) return undefined;
    refuseListedHost(target.parsed.hostname, deps);
    refuseOwnHost(target, deps.baseUrl, deps.domains.isOwnHost);
    const hash = urlHash(target.normalized);
    const holder = await deps.store.findLiveLinkByUrlHash(link.workspaceId, link.domainId, hash);
    if (holder && holder.id !== link.id) throw duplicateOf(holder);
    return { target, hash };
  }

  async function edit(workspaceId: number, domainId: number, code: string, patch: LinkPatch): Promise<Link> {
    if (deps.isSuspended?.(workspaceId)) throw new Refusal('303', 'This workspace is suspended.');
    const link = await deps.store.findLinkOfWorkspace(workspaceId, domainId, code);
    if (!link) throw noSuchLink();
    const change: LinkUpdate = {};
    // A bad shape is refused before anything else is looked at; a taken code by the store (313).
    if (patch.slug !== undefined && patch.slug !== code) change.code = checkSlug(patch.slug);
    // The checks in the order of creating a link; what needs no fetch first, so a refused field
    // never costs an inspection.
    const url = patch.utm === undefined ? patch.url : campaignUrl(patch.url ?? link.longUrl, patch.utm);
    const target = url === undefined ? undefined : targetOrRefuse(url);
    if (patch.group === null) change.groupId = null;
    else if (patch.group !== undefined)
      change.groupId = (await groupOrRefuse(deps.store, workspaceId, patch.group)).id;
    if (patch.title !== undefined) change.title = checkTitle(patch.title);
    if (patch.tags !== undefined) change.tags = checkTags(patch.tags);
    if (patch.archived !== undefined) change.archived = patch.archived;
    if (patch.publicStats !== undefined) change.publicStats = patch.publicStats;
    const rules = checkLinkRules(patch, now());
    const test = testAfter(rules, link.test, now());
    const moved = target === undefined ? undefined : await newTarget(link, target);
    refuseRuleTargets(rules, deps, deps.baseUrl, deps.domains.isOwnHost);
    if (moved) {
      await inspectOrRefuse(deps.inspector, moved.target);
      change.target = {
        longUrl: moved.target.longUrl,
        normalizedUrl: moved.target.normalized,
        urlHash: moved.hash,
      };
    }
    await inspectRuleTargets(deps.inspector, rules);
    change.guards = await guardsOf(rules);
    if (test !== undefined) change.guards.test = test;
    const result = await deps.store.updateLink(workspaceId, domainId, code, change, deps.events);
    if (result.kind === 'not-found') throw noSuchLink();
    if (result.kind === 'duplicate') throw duplicateOf(result.existing);
    if (result.kind === 'code-taken') throw codeTaken();
    await deps.linkEvents.changed(linkKey(domainId, code));
    // The new code may be cached as unknown; the old one now resolves as an alias.
    if (change.code !== undefined) await deps.linkEvents.changed(linkKey(domainId, change.code));
    return result.link;
  }

  return {
    edit,

    async remove(workspaceId, domainId, code) {
      if (!(await deps.store.deleteLink(workspaceId, domainId, code, deps.events))) throw noSuchLink();
      await deps.linkEvents.changed(linkKey(domainId, code));
    },

    async editFor(actor, domainId, code, patch) {
      const rate = await spendWindow(deps.counter, workspaceRateWindow(actor), now());
      try {
        return { link: await edit(actor.workspaceId, domainId, code, patch), rate };
      } catch (error) {
        throw error instanceof Refusal ? error.with({ rate }) : error;
      }
    },
  };
}
