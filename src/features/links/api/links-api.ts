import type { Actor, Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import { linkFind, positionOf } from '../../../core/link-query.ts';
import type { GroupStore, LinkExportStore, LinkStore } from '../../../core/ports/store.ts';
import type { LinkOrigins } from '../../../core/short-url.ts';
import type { AddressedDomain } from '../../domains/index.ts';
import { groupOrRefuse } from '../../groups/index.ts';
import type { CreateLinkAs, LinkEditor, LinkPatch } from '../link-requests.ts';
import type { CursorOrder, PageCursors } from './cursor.ts';
import type {
  CreateLinkBodyType,
  LinkResource,
  ListLinksQueryType,
  PatchLinkBodyType,
} from './link-schemas.ts';
import { csvExports, linksCsv } from './links-csv.ts';
import { linkResources } from './resources.ts';

/** The management API's links (docs/api.md §7.3), as resources; the routes only carry them. */

export interface LinksApiDeps {
  store: Pick<
    GroupStore & LinkStore & LinkExportStore,
    | 'findLinkOfWorkspace'
    | 'listLinks'
    | 'tagsOf'
    | 'aliasesOf'
    | 'listGroups'
    | 'findGroupOfWorkspace'
    | 'exportLinksPage'
  >;
  createLinkAs: CreateLinkAs;
  editor: LinkEditor;
  cursors: PageCursors;
  /** Each domain's origin, for short_url and qr_code. */
  origins: LinkOrigins;
  /** The domain `?domain=` names for the workspace (317 for one it does not see), its default without. */
  domainOf: AddressedDomain;
  now: () => number;
}

/** A link addressed as the API names it: a code, and the domain of `?domain=`. */
export interface LinkAddress {
  code: string;
  domain: string | undefined;
}

const noSuchLink = () => new Refusal('314', 'This account has no live link with that code.');

/** What the API's link fields mean to the services. */
function ruleFields(body: PatchLinkBodyType) {
  return {
    expiresAt: body.expires_at,
    maxClicks: body.max_clicks,
    password: body.password,
    rules: body.rules,
    forwardQuery: body.forward_query,
    preview: body.preview,
    trackConversions: body.track_conversions,
    utm: body.utm,
    variants: body.variants,
    testEndsAt: body.test_ends_at,
  };
}

export function linksApi(deps: LinksApiDeps) {
  const { store, origins } = deps;
  const exports = csvExports((actor, domainId?: number) => linksCsv(store, origins, actor, domainId));
  /** `?domain=` as a filter: only when given. */
  const filterOf = (actor: Actor, domain: string | undefined) =>
    domain === undefined ? undefined : deps.domainOf(actor.workspaceId, domain);

  /** A domain the workspace sees, by a host pasted in a search; undefined for any other. */
  const knownDomain = (actor: Actor, host: string): number | undefined => {
    try {
      return deps.domainOf(actor.workspaceId, host);
    } catch {
      return undefined;
    }
  };

  async function resource(workspaceId: number, link: Link): Promise<LinkResource> {
    const [one] = await linkResources(store, origins, workspaceId, [link]);
    if (!one) throw new Error('a link without its resource');
    return one;
  }

  return {
    async list(actor: Actor, query: ListLinksQueryType) {
      const limit = query.limit ?? 50;
      const order: CursorOrder = { sort: query.sort ?? 'created', ascending: query.order === 'asc' };
      const after =
        query.cursor === undefined ? undefined : deps.cursors.readIn(actor.workspaceId, query.cursor, order);
      const group =
        query.group === undefined ? undefined : await groupOrRefuse(store, actor.workspaceId, query.group);
      const tags = query.tag === undefined ? [] : [query.tag].flat();
      const now = deps.now();
      const page = await store.listLinks(actor.workspaceId, {
        domainId: filterOf(actor, query.domain),
        groupId: group?.id,
        find: linkFind(query.q, (host) => knownDomain(actor, host)),
        tags: tags.length === 0 ? undefined : { values: tags, all: true },
        state: { is: query.state ?? 'listed', now },
        expired: query.expired === undefined ? undefined : { is: query.expired, now },
        order: order.sort,
        ascending: order.ascending,
        limit,
        after,
        counted: false,
      });
      const last = page.links.at(-1);
      return {
        items: await linkResources(store, origins, actor.workspaceId, page.links),
        next_cursor:
          page.more && last
            ? deps.cursors.issue(actor.workspaceId, positionOf(last, order.sort), order)
            : null,
      };
    },

    async get(actor: Actor, { code, domain }: LinkAddress): Promise<LinkResource> {
      const domainId = deps.domainOf(actor.workspaceId, domain);
      const link = await store.findLinkOfWorkspace(actor.workspaceId, domainId, code);
      if (!link) throw noSuchLink();
      return resource(actor.workspaceId, link);
    },

    async create(actor: Actor, body: CreateLinkBodyType, clientAddress: string): Promise<LinkResource> {
      const link = await deps.createLinkAs(actor, {
        url: body.url,
        group: body.group === undefined ? undefined : String(body.group),
        slug: body.slug,
        title: body.title,
        tags: body.tags,
        domain: body.domain,
        publicStats: body.public_stats,
        ...ruleFields(body),
        clientAddress,
      });
      return resource(actor.workspaceId, link);
    },

    async patch(actor: Actor, { code, domain }: LinkAddress, body: PatchLinkBodyType): Promise<LinkResource> {
      const patch: LinkPatch = {
        url: body.url,
        title: body.title,
        group: body.group === undefined || body.group === null ? body.group : String(body.group),
        tags: body.tags,
        archived: body.archived,
        publicStats: body.public_stats,
        slug: body.slug,
        ...ruleFields(body),
      };
      const domainId = deps.domainOf(actor.workspaceId, domain);
      return resource(actor.workspaceId, await deps.editor.edit(actor.workspaceId, domainId, code, patch));
    },

    async remove(actor: Actor, { code, domain }: LinkAddress): Promise<void> {
      await deps.editor.remove(actor.workspaceId, deps.domainOf(actor.workspaceId, domain), code);
    },

    /** A stream of CSV (only `?domain=`'s links when given); 429 while the account has as many exports under way as it may. */
    csv: (actor: Actor, domain: string | undefined) => exports(actor, filterOf(actor, domain)),
  };
}

export type LinksApi = ReturnType<typeof linksApi>;
