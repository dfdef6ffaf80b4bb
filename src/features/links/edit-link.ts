import type { Link, LinkChange } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { groupOrRefuse, inspectOrRefuse, refuseOwnHost, targetOrRefuse } from '../../core/link-checks.ts';
import { checkTags, checkTitle, refuseLinkRules } from '../../core/link-fields.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { LinkEditor, LinkPatch } from '../../core/ports/link-editor.ts';
import type { LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import type { GroupStore, LinkStore } from '../../core/ports/store.ts';
import { accountRateWindow, spendWindow } from '../../core/rate-window.ts';
import type { SocialMatcher } from '../../core/social.ts';
import { urlHash } from '../../core/target-url.ts';

export interface EditLinkDeps {
  store: Pick<GroupStore, 'findGroupOfAccount'> &
    Pick<LinkStore, 'findLinkOfAccount' | 'findLiveLinkByUrlHash' | 'updateLink' | 'deleteLink'>;
  inspector: Inspector;
  isSocial: SocialMatcher;
  baseUrl: URL;
  /** Every instance drops the code from its cache (Redis pub/sub), this one at once. */
  linkEvents: Pick<LinkEvents, 'changed'>;
  /** The dashboard's window. */
  counter: WindowCounter;
  now?: () => number;
}

const noSuchLink = () => new Refusal('314', 'This account has no live link with that code.');

/** Changing a link (docs/api.md §7.3): the fields checked in the order of creating one, then one update. */
export function linkEditor(deps: EditLinkDeps): LinkEditor {
  const now = deps.now ?? Date.now;

  /** A new target, unless it is the one the link has: checked as on create, the inspection last. */
  async function newTarget(link: Link, url: string, checksBeforeInspection: () => Promise<void>) {
    const target = targetOrRefuse(url);
    await checksBeforeInspection();
    if (target.normalized === link.normalizedUrl && target.longUrl === link.longUrl) return undefined;
    if (deps.isSocial(target.parsed.hostname)) throw new Refusal('310');
    refuseOwnHost(target, deps.baseUrl);
    const hash = urlHash(target.normalized);
    const holder = await deps.store.findLiveLinkByUrlHash(link.accountId, hash);
    if (holder && holder.id !== link.id) throw new Refusal('305', undefined, { existingCode: holder.code });
    await inspectOrRefuse(deps.inspector, target);
    return { longUrl: target.longUrl, normalizedUrl: target.normalized, urlHash: hash };
  }

  async function edit(accountId: number, code: string, patch: LinkPatch): Promise<Link> {
    const link = await deps.store.findLinkOfAccount(accountId, code);
    if (!link) throw noSuchLink();
    const change: LinkChange = {};
    // The fields that need no fetch first, so a refused one never costs an inspection.
    const fieldChecks = async () => {
      if (patch.group === null) change.groupId = null;
      else if (patch.group !== undefined)
        change.groupId = (await groupOrRefuse(deps.store, accountId, patch.group)).id;
      if (patch.title !== undefined) change.title = checkTitle(patch.title);
      if (patch.tags !== undefined) change.tags = checkTags(patch.tags);
      refuseLinkRules(patch, now());
    };
    if (patch.url === undefined) await fieldChecks();
    else change.target = await newTarget(link, patch.url, fieldChecks);
    if (change.target === undefined) delete change.target;
    const result = await deps.store.updateLink(accountId, code, change);
    if (result.kind === 'not-found') throw noSuchLink();
    if (result.kind === 'duplicate')
      throw new Refusal('305', undefined, { existingCode: result.existing.code });
    await deps.linkEvents.changed(code);
    return result.link;
  }

  return {
    edit,

    async remove(accountId, code) {
      if (!(await deps.store.deleteLink(accountId, code))) throw noSuchLink();
      await deps.linkEvents.changed(code);
    },

    async editFor(actor, code, patch) {
      const rate = await spendWindow(deps.counter, accountRateWindow(actor), now());
      try {
        return { link: await edit(actor.accountId, code, patch), rate };
      } catch (error) {
        throw error instanceof Refusal ? error.with({ rate }) : error;
      }
    },
  };
}
