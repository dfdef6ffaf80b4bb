import type { Actor, Group, Link } from '../../core/entities.ts';
import { API_ERRORS, type RateState, Refusal } from '../../core/errors.ts';
import type { Inspector } from '../../core/ports/inspector.ts';
import type { CreatedLink, LinkDraft } from '../../core/ports/link-creator.ts';
import type { WindowCounter } from '../../core/ports/shared-state.ts';
import type { GroupStore, LinkStore } from '../../core/ports/store.ts';
import { accountRateWindow, type RateWindow, secondsUntil, windowAt } from '../../core/rate-window.ts';
import { generateShortCode } from '../../core/short-code.ts';
import type { SocialMatcher } from '../../core/social.ts';
import { parseTargetUrl, pointsAtOwnHost, type TargetUrl, urlHash } from '../../core/target-url.ts';
import type { KeyGate } from './key-gate.ts';

/** POST /create as a story (docs/api.md §2.3): every check in the specified order, the first refusal answers. */

export interface CreateLinkRequest extends LinkDraft {
  apiKey: string | undefined;
}

/** What creating a link needs of a store; the demo passes one that keeps nothing. */
export type CreateLinkStore = Pick<GroupStore, 'findGroupOfAccount'> &
  Pick<LinkStore, 'findLiveLinkByUrlHash' | 'countLiveLinks' | 'insertLinkWithinQuota'>;

export interface CreateLinkDeps {
  store: CreateLinkStore;
  /** Who may create with a key and how fast: account keys for /create, the demo key for /demo/create. */
  gate: KeyGate;
  inspector: Inspector;
  counter: WindowCounter;
  isSocial: SocialMatcher;
  baseUrl: URL;
  failedKeyLimit: number;
  failedKeyWindowMs: number;
  now?: () => number;
  newCode?: () => string;
  /** Told of every stored link, e.g. so caches forget a code they had seen as unknown. */
  onCreated?: (link: Link) => void;
}

const CODE_ATTEMPTS = 8;

export function createLinkService(deps: CreateLinkDeps) {
  const now = deps.now ?? Date.now;
  const newCode = deps.newCode ?? (() => generateShortCode());
  const failedKeys = (clientAddress: string) => `failed-key:${clientAddress}`;

  /** Keys cannot be guessed: an address with too many failed keys is refused before its key is read. */
  async function guardFailedKeys(clientAddress: string): Promise<void> {
    const at = now();
    const window = windowAt(at, deps.failedKeyWindowMs);
    if ((await deps.counter.peek(failedKeys(clientAddress), window)) >= deps.failedKeyLimit) {
      throw new Refusal('429', 'Too many requests with a missing or wrong API key from this address.', {
        retryAfterSeconds: secondsUntil(window.end, at),
      });
    }
  }

  async function authenticate(apiKey: string | undefined, clientAddress: string) {
    const key = apiKey?.trim() ?? '';
    try {
      if (key === '') throw new Refusal('301');
      return await deps.gate.identify(key);
    } catch (error) {
      if (error instanceof Refusal) {
        await deps.counter.increment(failedKeys(clientAddress), windowAt(now(), deps.failedKeyWindowMs));
      }
      throw error;
    }
  }

  /** Spends one request of the window; every authenticated request counts, whatever its outcome. */
  async function spend(window: RateWindow): Promise<RateState> {
    const at = now();
    const span = windowAt(at, window.lengthMs);
    const count = await deps.counter.increment(window.key, span);
    const rate = {
      limit: window.limit,
      remaining: Math.max(0, window.limit - count),
      resetSeconds: secondsUntil(span.end, at),
    };
    if (count > window.limit) {
      throw new Refusal('429', window.spentMessage, { rate, retryAfterSeconds: rate.resetSeconds });
    }
    return rate;
  }

  async function findGroup(accountId: number, ref: string | undefined): Promise<Group | undefined> {
    if (ref === undefined || ref.trim() === '') return undefined;
    const wanted = ref.trim();
    const group = /^\d{1,15}$/.test(wanted)
      ? await deps.store.findGroupOfAccount(accountId, { id: Number(wanted) })
      : await deps.store.findGroupOfAccount(accountId, { apiId: wanted.toLowerCase() });
    if (!group) throw new Refusal('312');
    return group;
  }

  const alreadyShortened = (existing: Link) => new Refusal('305', undefined, { existingCode: existing.code });

  async function refuseDuplicateOrFull(actor: Actor, target: TargetUrl, hash: string): Promise<void> {
    if (pointsAtOwnHost(target.parsed, deps.baseUrl)) {
      throw new Refusal('305', 'The URL points at this shortener.');
    }
    const existing = await deps.store.findLiveLinkByUrlHash(actor.accountId, hash);
    if (existing) throw alreadyShortened(existing);
    if ((await deps.store.countLiveLinks(actor.accountId)) >= actor.plan.urlQuota) throw new Refusal('304');
  }

  async function inspect(target: TargetUrl): Promise<string> {
    const outcome = await deps.inspector.inspect(target.parsed);
    if (!outcome.ok) throw new Refusal(outcome.code, `${API_ERRORS[outcome.code]} (${outcome.reason})`);
    return outcome.title;
  }

  async function store(
    actor: Actor,
    target: TargetUrl,
    hash: string,
    group: Group | undefined,
    title: string,
  ) {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const result = await deps.store.insertLinkWithinQuota({
        code: newCode(),
        accountId: actor.accountId,
        groupId: group?.id ?? null,
        longUrl: target.longUrl,
        normalizedUrl: target.normalized,
        urlHash: hash,
        title,
      });
      if (result.kind === 'created') {
        deps.onCreated?.(result.link);
        return result.link;
      }
      if (result.kind === 'duplicate') throw alreadyShortened(result.existing);
      if (result.kind === 'quota-exceeded') throw new Refusal('304');
    }
    throw new Error(`no free short code after ${CODE_ATTEMPTS} attempts`);
  }

  /** From the rate limit on (rows 4-15): the same for a key's owner and a signed-in account. */
  async function create(actor: Actor, window: RateWindow, draft: LinkDraft): Promise<CreatedLink> {
    const rate = await spend(window);
    try {
      if (draft.url === undefined || draft.url.trim() === '') throw new Refusal('302');
      const target = parseTargetUrl(draft.url);
      if (!target) {
        throw new Refusal('300', 'The url must be an absolute http(s) URL of at most 2,048 characters.');
      }
      const group = await findGroup(actor.accountId, draft.group);
      if (deps.isSocial(target.parsed.hostname)) throw new Refusal('310');
      const hash = urlHash(target.normalized);
      await refuseDuplicateOrFull(actor, target, hash);
      const title = await inspect(target);
      return { link: await store(actor, target, hash, group, title), rate };
    } catch (error) {
      throw error instanceof Refusal ? error.with({ rate }) : error;
    }
  }

  return {
    /** POST /create and /demo/create: the failed-key limiter and the key come first (rows 2-3). */
    async withKey(request: CreateLinkRequest): Promise<CreatedLink> {
      await guardFailedKeys(request.clientAddress);
      const owner = await authenticate(request.apiKey, request.clientAddress);
      return create(owner, deps.gate.rateWindow(owner, request.clientAddress), request);
    },

    /** The dashboard: the signed-in account acts itself, in the hourly window its key would spend. */
    async forAccount(actor: Actor, draft: LinkDraft): Promise<CreatedLink> {
      return create(actor, accountRateWindow(actor), draft);
    },
  };
}

export type CreateLinkService = ReturnType<typeof createLinkService>;
