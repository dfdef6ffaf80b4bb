import type { Actor, Group, Link, LinkGuards } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { campaignUrl } from '../../core/link-campaign.ts';
import { checkLinkRules, checkSlug, checkTags, checkTitle, guardsOf } from '../../core/link-fields.ts';
import { testAfter } from '../../core/link-variants.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { KeyAuthenticator } from '../../core/ports/key-auth.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { GroupStore, LinkStore } from '../../core/ports/store.ts';
import type { LinkEventSink } from '../../core/ports/webhook-store.ts';
import { spendWindow, workspaceRateWindow } from '../../core/rate-window.ts';
import { generateShortCode } from '../../core/short-code.ts';
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
import type { CreatedLink, LinkDomains, LinkDraft } from './link-requests.ts';

/**
 * Creating a link as a story (docs/api.md §2.3, §7.3): every check in the specified order, the first
 * refusal answers. POST /create, POST /api/v1/links, the dashboard and the demo all tell it.
 */

export interface CreateLinkRequest extends LinkDraft {
  apiKey: string | undefined;
}

/** What creating a link needs of a store; the demo passes one that keeps nothing. */
export type CreateLinkStore = Pick<GroupStore, 'findGroupOfWorkspace'> &
  Pick<LinkStore, 'findLiveLinkByUrlHash' | 'countLiveLinks' | 'insertLinkWithinQuota' | 'isCodeIssued'>;

export interface CreateLinkDeps {
  store: CreateLinkStore;
  /** Who may create with a key and how fast: account keys, or the demo key for /demo/create. */
  keys: KeyAuthenticator;
  inspector: Inspector;
  /** The windows of the dashboard, which acts without a key. */
  counter: WindowCounter;
  isSocial: SocialMatcher;
  /** The workspace is suspended by an operator (docs/api.md §13): it makes and changes nothing (303). */
  isSuspended?: (workspaceId: number) => boolean;
  /** The operators' blocklists (docs/api.md §13); none by default. */
  isBlocked?: (host: string) => boolean;
  baseUrl: URL;
  domains: LinkDomains;
  now?: () => number;
  newCode?: () => string;
  /** Told of every stored link, e.g. so caches forget a code they had seen as unknown. */
  onCreated?: (link: Link) => void;
  /** Makes the link.created event in the insert's transaction (docs/api.md §14); none by default. */
  events?: LinkEventSink;
}

const CODE_ATTEMPTS = 8;

const slugTaken = () => new Refusal('313', 'A link has had this code; codes are never issued twice.');
const alreadyShortened = (existing: Link) =>
  new Refusal('305', undefined, { existingCode: existing.code, existingDomainId: existing.domainId });

async function findGroup(
  deps: CreateLinkDeps,
  workspaceId: number,
  ref: string | undefined,
): Promise<Group | undefined> {
  if (ref === undefined || ref.trim() === '') return undefined;
  return groupOrRefuse(deps.store, workspaceId, ref);
}

async function freeSlug(
  deps: CreateLinkDeps,
  domainId: number,
  slug: string | undefined,
): Promise<string | undefined> {
  if (slug === undefined) return undefined;
  const checked = checkSlug(slug);
  if (await deps.store.isCodeIssued(domainId, checked)) throw slugTaken();
  return checked;
}

async function refuseDuplicateOrFull(
  deps: CreateLinkDeps,
  actor: Actor,
  domainId: number,
  target: TargetUrl,
  hash: string,
): Promise<void> {
  refuseOwnHost(target, deps.baseUrl, deps.domains.isOwnHost);
  const existing = await deps.store.findLiveLinkByUrlHash(actor.workspaceId, domainId, hash);
  if (existing) throw alreadyShortened(existing);
  if ((await deps.store.countLiveLinks(actor.workspaceId)) >= actor.plan.urlQuota) throw new Refusal('304');
}

/** A link whose every field passed its checks, ready to be stored. */
interface Checked {
  domainId: number;
  target: TargetUrl;
  hash: string;
  group: Group | undefined;
  slug: string | undefined;
  title: string;
  tags: readonly string[];
  guards: LinkGuards;
  publicStats: boolean;
}

/** Stores the link within the quota under its slug, or under a drawn code (drawn again on a collision). */
async function store(
  deps: CreateLinkDeps,
  newCode: () => string,
  actor: Actor,
  link: Checked,
): Promise<Link> {
  const attempts = link.slug === undefined ? CODE_ATTEMPTS : 1;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const result = await deps.store.insertLinkWithinQuota(
      {
        code: link.slug ?? newCode(),
        domainId: link.domainId,
        workspaceId: actor.workspaceId,
        groupId: link.group?.id ?? null,
        longUrl: link.target.longUrl,
        normalizedUrl: link.target.normalized,
        urlHash: link.hash,
        title: link.title,
        tags: link.tags,
        guards: link.guards,
        publicStats: link.publicStats,
      },
      deps.events,
    );
    if (result.kind === 'created') {
      deps.onCreated?.(result.link);
      return result.link;
    }
    if (result.kind === 'duplicate') throw alreadyShortened(result.existing);
    if (result.kind === 'quota-exceeded') throw new Refusal('304');
  }
  if (link.slug !== undefined) throw slugTaken();
  throw new Error(`no free short code after ${CODE_ATTEMPTS} attempts`);
}

export function createLinkService(deps: CreateLinkDeps) {
  const now = deps.now ?? Date.now;
  const newCode = deps.newCode ?? (() => generateShortCode());

  /** From the url on (rows 5-15), once the request has spent its window. */
  async function create(actor: Actor, draft: LinkDraft): Promise<Link> {
    if (deps.isSuspended?.(actor.workspaceId)) throw new Refusal('303', 'This workspace is suspended.');
    if (draft.url === undefined || draft.url.trim() === '') throw new Refusal('302');
    const target = targetOrRefuse(campaignUrl(draft.url, draft.utm));
    const group = await findGroup(deps, actor.workspaceId, draft.group);
    const domainId = await deps.domains.forNewLink(actor.workspaceId, draft.domain);
    const slug = await freeSlug(deps, domainId, draft.slug);
    const givenTitle = draft.title === undefined ? undefined : checkTitle(draft.title);
    const tags = checkTags(draft.tags ?? []);
    const rules = checkLinkRules(draft, now());
    const test = testAfter(rules, null, now());
    refuseListedHost(target.parsed.hostname, deps);
    refuseRuleTargets(rules, deps, deps.baseUrl, deps.domains.isOwnHost);
    const hash = urlHash(target.normalized);
    await refuseDuplicateOrFull(deps, actor, domainId, target, hash);
    const pageTitle = await inspectOrRefuse(deps.inspector, target);
    await inspectRuleTargets(deps.inspector, rules);
    const title = givenTitle === undefined || givenTitle === '' ? pageTitle : givenTitle;
    return store(deps, newCode, actor, {
      domainId,
      target,
      hash,
      group,
      slug,
      title,
      tags,
      guards: { ...(await guardsOf(rules)), ...(test ? { test } : {}) },
      publicStats: draft.publicStats === true,
    });
  }

  return {
    /** A request whose key was judged already (the management API): from the url on. */
    createAs: create,

    /** A request with a key: the failed-key limiter, the key, the window and the scope come first (rows 2-4). */
    async withKey(request: CreateLinkRequest): Promise<CreatedLink> {
      const { actor, rate } = await deps.keys.authenticate(
        request.apiKey,
        request.clientAddress,
        'links:create',
      );
      try {
        return { link: await create(actor, request), rate };
      } catch (error) {
        throw error instanceof Refusal ? error.with({ rate }) : error;
      }
    },

    /** The dashboard: the signed-in account acts itself, in the hourly window its keys spend. */
    async forWorkspace(actor: Actor, draft: LinkDraft): Promise<CreatedLink> {
      const rate = await spendWindow(deps.counter, workspaceRateWindow(actor), now());
      try {
        return { link: await create(actor, draft), rate };
      } catch (error) {
        throw error instanceof Refusal ? error.with({ rate }) : error;
      }
    },
  };
}

export type CreateLinkService = ReturnType<typeof createLinkService>;
