import type { Group, Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import type { AccountStore, GroupStore, LinkStore } from '../../../core/ports/store.ts';
import { groupOrRefuse } from '../../groups/index.ts';
import { personalWorkspace } from '../../workspaces/index.ts';
import type { LinkEditor, LinkPatch } from '../link-requests.ts';
import { LINK_LIST_DEFAULT, LINK_LIST_MAX } from './link-usage.ts';

/**
 * The operator's view of links (docs/api.md §6): any account's links by its email, and any live link
 * by its code. Changes go through the link editor, so they pass the checks of the API.
 */

/** A link with what it is shown with: its group, its tags and its former codes (oldest first). */
export interface LinkDetails {
  link: Link;
  group: Group | null;
  tags: string[];
  aliases: string[];
}

export function linkOperations(store: LinkStore & GroupStore & AccountStore) {
  /** Links of one account, with their groups and tags read once for all of them. */
  async function detailed(workspaceId: number, links: readonly Link[]): Promise<LinkDetails[]> {
    if (links.length === 0) return [];
    const ids = links.map((link) => link.id);
    const [tags, groups, aliases] = await Promise.all([
      store.tagsOf(ids),
      store.listGroups(workspaceId),
      store.aliasesOf(ids),
    ]);
    const byId = new Map(groups.map((group) => [group.id, group]));
    return links.map((link) => ({
      link,
      group: link.groupId === null ? null : (byId.get(link.groupId) ?? null),
      tags: tags.get(link.id) ?? [],
      aliases: aliases.get(link.id) ?? [],
    }));
  }

  /** The live link of that code on the domain, whichever account holds it (314 otherwise, as the API says). */
  async function liveLink(domainId: number, code: string): Promise<Link> {
    const link = await store.findLinkByCode(domainId, code);
    if (!link) throw new Refusal('314', `no live link has the code "${code}"`);
    return link;
  }

  return {
    /** Newest first; `group` is a group's numeric ID or API identifier in that account (312 otherwise). */
    async list(email: string, options: { group?: string; limit?: number } = {}): Promise<LinkDetails[]> {
      const limit = options.limit ?? LINK_LIST_DEFAULT;
      if (!Number.isInteger(limit) || limit < 1 || limit > LINK_LIST_MAX) {
        throw new RangeError(`a list holds 1 to ${LINK_LIST_MAX} links`);
      }
      const account = await personalWorkspace(store, email);
      const groupId =
        options.group === undefined ? undefined : (await groupOrRefuse(store, account.id, options.group)).id;
      const page = await store.listLinks(account.id, { groupId, limit, counted: false });
      return detailed(account.id, page.links);
    },

    async show(domainId: number, code: string): Promise<LinkDetails> {
      const link = await liveLink(domainId, code);
      const [details] = await detailed(link.workspaceId, [link]);
      return details as LinkDetails;
    },

    /** Changes the link with the API's checks; a refused change changes nothing. */
    async edit(editor: LinkEditor, domainId: number, code: string, patch: LinkPatch): Promise<LinkDetails> {
      const link = await liveLink(domainId, code);
      const changed = await editor.edit(link.workspaceId, link.domainId, code, patch);
      const [details] = await detailed(changed.workspaceId, [changed]);
      return details as LinkDetails;
    },

    /** Soft delete: the code answers 404 and is never issued again. */
    async remove(editor: LinkEditor, domainId: number, code: string): Promise<void> {
      const link = await liveLink(domainId, code);
      await editor.remove(link.workspaceId, link.domainId, code);
    },
  };
}

export type LinkOperations = ReturnType<typeof linkOperations>;
