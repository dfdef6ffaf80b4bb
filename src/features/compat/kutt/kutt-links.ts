import type { Actor } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { type LinkAddress, type LinkResource, type LinksApi, linkResources } from '../../links/index.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { kuttError } from './kutt-errors.ts';
import type { KuttCreate, KuttEdit, KuttListQuery } from './kutt-input.ts';
import { type KuttLink, kuttLink } from './kutt-link.ts';
import { type KuttStats, kuttStats } from './kutt-stats.ts';

/**
 * Kutt's link calls on Snip's links service: every check of a create or an edit stays Snip's, this
 * only turns Kutt's fields into Snip's and the answer back. Snip keeps one live link per target and
 * domain: `reuse` answers that link as Kutt does; without it the create is refused, naming the
 * link, where Kutt would have made a second one.
 */

type CreateBody = Parameters<LinksApi['create']>[1];
type PatchBody = Parameters<LinksApi['patch']>[2];

export interface KuttList {
  total: number;
  limit: number;
  skip: number;
  data: KuttLink[];
}

/** A link the workspace does not have (or a host it does not see, in an id) is Kutt's "not found". */
export async function orNotFound<T>(work: () => T | Promise<T>, message: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refusal && (error.code === '314' || error.code === '317')) {
      throw kuttError(404, message);
    }
    throw error;
  }
}

function createBody(input: KuttCreate): CreateBody {
  return {
    url: input.target,
    ...(input.customurl === undefined ? {} : { slug: input.customurl }),
    ...(input.description === undefined ? {} : { title: input.description }),
    ...(input.domain === undefined ? {} : { domain: input.domain }),
    ...(input.password === undefined ? {} : { password: input.password }),
    ...(input.expiresAt === undefined ? {} : { expires_at: input.expiresAt }),
  };
}

/** What an edit changes of the link as it is; Kutt ignores a field equal to the current value. */
function patchOf(current: LinkResource, input: KuttEdit): PatchBody {
  if (input.address !== undefined && input.address !== current.short_code) {
    throw kuttError(
      400,
      "Snip never changes a link's address: create a link with the new custom URL instead.",
    );
  }
  const patch: PatchBody = {};
  if (input.target !== undefined && input.target !== current.long_url) patch.url = input.target;
  if (input.description !== undefined && input.description !== current.title) patch.title = input.description;
  if (input.expiresAt !== undefined) patch.expires_at = input.expiresAt;
  if (typeof input.password === 'string') patch.password = input.password;
  else if (input.password === null && current.has_password) patch.password = null;
  return patch;
}

export function kuttLinks(deps: CompatDeps) {
  const defaultHost = (actor: Actor) => deps.domainChoices(actor.workspaceId).chosen;
  const shaped = (actor: Actor, link: LinkResource) => kuttLink(link, defaultHost(actor));

  /** The link a 305 names: the workspace's live link to the same target on the same domain. */
  async function existing(actor: Actor, refusal: Refusal): Promise<LinkResource> {
    const { existingCode, existingDomainId } = refusal.facts;
    if (existingCode === undefined || existingDomainId === undefined) throw refusal;
    return deps.links.get(actor, { code: existingCode, domain: deps.origins.hostOf(existingDomainId) });
  }

  return {
    async list(actor: Actor, query: KuttListQuery): Promise<KuttList> {
      const page = await deps.store.listLinks(actor.workspaceId, {
        limit: query.limit,
        offset: query.skip,
        search: query.search,
        searchCodesAndTags: true,
        counted: true,
      });
      const links = await linkResources(deps.store, deps.origins, actor.workspaceId, page.links);
      const host = defaultHost(actor);
      return {
        total: page.total ?? links.length,
        limit: query.limit,
        skip: query.skip,
        data: links.map((link) => kuttLink(link, host)),
      };
    },

    /** 201 with the new link; 200 with the one already there when `reuse` asks for it. */
    async create(actor: Actor, input: KuttCreate, clientAddress: string) {
      try {
        const link = await deps.links.create(actor, createBody(input), clientAddress);
        return { status: 201, link: shaped(actor, link) };
      } catch (error) {
        if (!(error instanceof Refusal) || error.code !== '305') throw error;
        const link = await existing(actor, error);
        if (input.reuse) return { status: 200, link: shaped(actor, link) };
        throw kuttError(
          400,
          `This URL was already shortened: ${link.short_url}. Snip keeps one link per target and ` +
            'domain; send "reuse": true to get it.',
        );
      }
    },

    async edit(actor: Actor, address: LinkAddress, input: KuttEdit): Promise<KuttLink> {
      const current = await orNotFound(() => deps.links.get(actor, address), 'Link was not found.');
      const patch = patchOf(current, input);
      if (Object.keys(patch).length === 0) throw kuttError(400, 'Should at least update one field.');
      return shaped(
        actor,
        await orNotFound(() => deps.links.patch(actor, address, patch), 'Link was not found.'),
      );
    },

    async remove(actor: Actor, address: LinkAddress): Promise<{ message: string }> {
      await orNotFound(() => deps.links.remove(actor, address), 'Could not find the link.');
      return { message: 'Link has been deleted successfully.' };
    },

    /** The link with its visits of the last day, week, month and year. */
    async stats(actor: Actor, address: LinkAddress): Promise<KuttStats & KuttLink> {
      const missing = 'Link could not be found.';
      const domainId = await orNotFound(() => deps.domainOf(actor.workspaceId, address.domain), missing);
      const link = await deps.store.findLinkOfWorkspace(actor.workspaceId, domainId, address.code);
      if (!link) throw kuttError(404, missing);
      const [resource] = await linkResources(deps.store, deps.origins, actor.workspaceId, [link]);
      if (!resource) throw kuttError(404, missing);
      return { ...(await kuttStats(deps.store, link.id, deps.now())), ...shaped(actor, resource) };
    },
  };
}

export type KuttLinks = ReturnType<typeof kuttLinks>;
