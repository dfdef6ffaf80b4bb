import type { StatsScope } from '../../core/analytics.ts';
import type { Actor, Group, Link } from '../../core/entities.ts';
import type { RateState } from '../../core/errors.ts';
import { Refusal } from '../../core/errors.ts';
import type { AccountGroups } from '../../core/groups.ts';
import { groupOrRefuse } from '../../core/link-checks.ts';
import type { CreateLinkAs } from '../../core/ports/link-creator.ts';
import type { LinkEditor, LinkPatch } from '../../core/ports/link-editor.ts';
import type { Store } from '../../core/ports/store.ts';
import { parseStatsRange, type StatsAnswer, type StatsQueryInput, statsAnswer } from '../../core/stats.ts';
import { csvRow, LINK_CSV_COLUMNS } from './csv.ts';
import type { PageCursors } from './cursor.ts';
import { groupResource, linkResource } from './resources.ts';
import type {
  CreateLinkBodyType,
  GroupResource,
  LinkResource,
  ListLinksQueryType,
  PatchLinkBodyType,
} from './schemas.ts';

/** The management API's answers (docs/api.md §7.3), as resources; the routes only carry them. */

export interface LinksApiDeps {
  store: Pick<
    Store,
    | 'findLinkOfAccount'
    | 'listLinks'
    | 'tagsOf'
    | 'listGroups'
    | 'findGroupOfAccount'
    | 'countLinksPerGroup'
    | 'countLiveLinks'
    | 'findAccountById'
    | 'stats'
  >;
  createLinkAs: CreateLinkAs;
  editor: LinkEditor;
  groups: AccountGroups;
  cursors: PageCursors;
  baseUrl: URL;
  now: () => number;
  /** ANALYTICS_RETENTION_DAYS: how far back hourly stats reach. */
  retentionDays: number;
}

/** Links read per store round trip while exporting. */
const EXPORT_PAGE = 500;

const noSuchLink = () => new Refusal('314', 'This account has no live link with that code.');

/** What the API's link fields mean to the services. */
function ruleFields(body: Pick<CreateLinkBodyType, 'expires_at' | 'max_clicks' | 'password' | 'rules'>) {
  return {
    expiresAt: body.expires_at,
    maxClicks: body.max_clicks,
    password: body.password,
    rules: body.rules,
  };
}

export function linksApi(deps: LinksApiDeps) {
  const { store, baseUrl } = deps;

  async function groupsById(accountId: number): Promise<Map<number, Group>> {
    return new Map((await store.listGroups(accountId)).map((group) => [group.id, group]));
  }

  async function resources(accountId: number, links: readonly Link[]): Promise<LinkResource[]> {
    if (links.length === 0) return [];
    const [groups, tags] = await Promise.all([
      groupsById(accountId),
      store.tagsOf(links.map((link) => link.id)),
    ]);
    return links.map((link) =>
      linkResource(
        baseUrl,
        link,
        link.groupId === null ? undefined : groups.get(link.groupId),
        tags.get(link.id) ?? [],
      ),
    );
  }

  async function resource(accountId: number, link: Link): Promise<LinkResource> {
    const [one] = await resources(accountId, [link]);
    if (!one) throw new Error('a link without its resource');
    return one;
  }

  return {
    async list(actor: Actor, query: ListLinksQueryType) {
      const limit = query.limit ?? 50;
      const after = query.cursor === undefined ? undefined : deps.cursors.read(actor.accountId, query.cursor);
      const group =
        query.group === undefined ? undefined : await groupOrRefuse(store, actor.accountId, query.group);
      const page = await store.listLinks(actor.accountId, {
        groupId: group?.id,
        search: query.q,
        tag: query.tag,
        expired: query.expired === undefined ? undefined : { is: query.expired, now: deps.now() },
        limit,
        after,
        counted: false,
      });
      const last = page.links.at(-1);
      return {
        items: await resources(actor.accountId, page.links),
        next_cursor:
          page.more && last
            ? deps.cursors.issue(actor.accountId, { value: last.createdAt.getTime(), id: last.id })
            : null,
      };
    },

    async get(actor: Actor, code: string): Promise<LinkResource> {
      const link = await store.findLinkOfAccount(actor.accountId, code);
      if (!link) throw noSuchLink();
      return resource(actor.accountId, link);
    },

    async create(actor: Actor, body: CreateLinkBodyType, clientAddress: string): Promise<LinkResource> {
      const link = await deps.createLinkAs(actor, {
        url: body.url,
        group: body.group === undefined ? undefined : String(body.group),
        slug: body.slug,
        title: body.title,
        tags: body.tags,
        ...ruleFields(body),
        clientAddress,
      });
      return resource(actor.accountId, link);
    },

    async patch(actor: Actor, code: string, body: PatchLinkBodyType): Promise<LinkResource> {
      const patch: LinkPatch = {
        url: body.url,
        title: body.title,
        group: body.group === undefined || body.group === null ? body.group : String(body.group),
        tags: body.tags,
        ...ruleFields(body),
      };
      return resource(actor.accountId, await deps.editor.edit(actor.accountId, code, patch));
    },

    async remove(actor: Actor, code: string): Promise<void> {
      await deps.editor.remove(actor.accountId, code);
    },

    /** Every live link of the account as CSV lines, read page by page: memory stays flat at any size. */
    async *csv(actor: Actor): AsyncGenerator<string> {
      const groups = await groupsById(actor.accountId);
      yield csvRow(LINK_CSV_COLUMNS);
      let after: { value: number; id: number } | undefined;
      for (;;) {
        const page = await store.listLinks(actor.accountId, { limit: EXPORT_PAGE, after, counted: false });
        const tags = await store.tagsOf(page.links.map((link) => link.id));
        let chunk = '';
        for (const link of page.links) {
          const group = link.groupId === null ? undefined : groups.get(link.groupId);
          const row = linkResource(baseUrl, link, group, tags.get(link.id) ?? []);
          chunk += csvRow([
            row.short_code,
            row.short_url,
            row.long_url,
            row.title,
            group?.apiId ?? '',
            row.tags.join(','),
            row.created_at,
            row.expires_at ?? '',
            String(row.clicks),
            String(row.unique_visitors),
          ]);
        }
        if (chunk !== '') yield chunk;
        const last = page.links.at(-1);
        if (!page.more || !last) return;
        after = { value: last.createdAt.getTime(), id: last.id };
      }
    },

    /** The stats of one live link of the account, or of the whole account (docs/api.md §9.4). */
    async stats(actor: Actor, query: StatsQueryInput, code?: string): Promise<StatsAnswer> {
      const parsed = parseStatsRange(query, { now: deps.now(), retentionDays: deps.retentionDays });
      if (parsed.kind === 'invalid') {
        throw new Refusal('300', `The query parameter ${parsed.field} is invalid: ${parsed.reason}.`);
      }
      let scope: StatsScope = { accountId: actor.accountId };
      if (code !== undefined) {
        const link = await store.findLinkOfAccount(actor.accountId, code);
        if (!link) throw noSuchLink();
        scope = { linkId: link.id };
      }
      return statsAnswer(await store.stats(scope, parsed.range), parsed.range);
    },

    async groups(actor: Actor) {
      const [groups, counts] = await Promise.all([
        store.listGroups(actor.accountId),
        store.countLinksPerGroup(actor.accountId),
      ]);
      return {
        items: groups.reverse().map((group) => groupResource(group, counts.get(group.id) ?? 0)),
        next_cursor: null,
      };
    },

    async createGroup(actor: Actor, name: string, apiId: string | undefined): Promise<GroupResource> {
      return groupResource(await deps.groups.create({ id: actor.accountId }, name, apiId), 0);
    },

    async patchGroup(
      actor: Actor,
      id: number,
      change: { name?: string; apiId?: string },
    ): Promise<GroupResource> {
      const group = await deps.groups.update({ id: actor.accountId }, id, change);
      const counts = await store.countLinksPerGroup(actor.accountId);
      return groupResource(group, counts.get(group.id) ?? 0);
    },

    async deleteGroup(actor: Actor, id: number): Promise<void> {
      await deps.groups.delete({ id: actor.accountId }, id);
    },

    async account(actor: Actor, rate: RateState) {
      const [account, used] = await Promise.all([
        store.findAccountById(actor.accountId),
        store.countLiveLinks(actor.accountId),
      ]);
      if (!account) throw new Refusal('303', 'The account of this key no longer exists.');
      return {
        email: account.email,
        plan: account.plan.name,
        api_access: account.plan.apiAccess,
        url_quota: account.plan.urlQuota,
        links_used: used,
        rate_limit_per_hour: account.plan.rateLimitPerHour,
        requests_this_hour: Math.min(rate.limit, rate.limit - rate.remaining),
      };
    },
  };
}

export type LinksApi = ReturnType<typeof linksApi>;
