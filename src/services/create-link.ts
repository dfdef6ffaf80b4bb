import { ApiError, ERROR_TABLE } from '../domain/errors.ts';
import { secondsUntil, windowAt } from '../domain/rate-window.ts';
import { generateShortCode } from '../domain/short-code.ts';
import type { SocialMatcher } from '../domain/social.ts';
import { parseTargetUrl, pointsAtOwnHost, type TargetUrl, urlHash } from '../domain/target-url.ts';
import type { Inspector } from '../inspect/types.ts';
import type { WindowCounter } from '../state/window-counter.ts';
import type { Group, KeyOwner, Link, LinkStore } from '../store/ports.ts';
import type { KeyGate } from './key-gate.ts';

/** POST /create as a story (SPEC.md 2.3): every check in the specified order, the first failure answers. */

export interface CreateLinkRequest {
  apiKey: string | undefined;
  url: string | undefined;
  group: string | undefined;
  clientAddress: string;
}

export interface CreatedLink {
  link: Link;
  /** RateLimit-* headers of the key's window, for the answer. */
  headers: Record<string, string>;
}

/** What creating a link needs of a store; the demo passes one that keeps nothing. */
export type CreateLinkStore = Pick<
  LinkStore,
  'findGroupOfAccount' | 'findLiveLinkByUrlHash' | 'countLiveLinks' | 'insertLinkWithinQuota'
>;

export interface CreateLinkDeps {
  store: CreateLinkStore;
  /** Who may create and how fast: account keys for /create, the demo key for /demo/create. */
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

  /** Keys cannot be guessed: an address with too many failed keys is refused before its key is read. */
  async function guardFailedKeys(clientAddress: string): Promise<void> {
    const at = now();
    const window = windowAt(at, deps.failedKeyWindowMs);
    const failures = await deps.counter.peek(`failed-key:${clientAddress}`, window);
    if (failures >= deps.failedKeyLimit) {
      throw new ApiError('429', 'Too many requests with a missing or wrong API key from this address.', {
        'retry-after': String(secondsUntil(window.end, at)),
      });
    }
  }

  async function refuseKey(clientAddress: string, error: ApiError): Promise<never> {
    await deps.counter.increment(`failed-key:${clientAddress}`, windowAt(now(), deps.failedKeyWindowMs));
    throw error;
  }

  async function authenticate(apiKey: string | undefined, clientAddress: string): Promise<KeyOwner> {
    const key = apiKey?.trim() ?? '';
    if (key === '') return refuseKey(clientAddress, new ApiError('301'));
    const owner = await deps.gate.identify(key);
    return owner instanceof ApiError ? refuseKey(clientAddress, owner) : owner;
  }

  /** Spends one request of the gate's window; every authenticated request counts, whatever its outcome. */
  async function spendRate(owner: KeyOwner, clientAddress: string): Promise<Record<string, string>> {
    const at = now();
    const rate = deps.gate.rateWindow(owner, clientAddress);
    const window = windowAt(at, rate.lengthMs);
    const count = await deps.counter.increment(rate.key, window);
    const reset = String(secondsUntil(window.end, at));
    const headers = {
      'ratelimit-limit': String(rate.limit),
      'ratelimit-remaining': String(Math.max(0, rate.limit - count)),
      'ratelimit-reset': reset,
    };
    if (count > rate.limit)
      throw new ApiError('429', rate.spentMessage, { ...headers, 'retry-after': reset });
    return headers;
  }

  async function findGroup(accountId: number, ref: string | undefined): Promise<Group | undefined> {
    if (ref === undefined || ref.trim() === '') return undefined;
    const wanted = ref.trim();
    const group = /^\d{1,15}$/.test(wanted)
      ? await deps.store.findGroupOfAccount(accountId, { id: Number(wanted) })
      : await deps.store.findGroupOfAccount(accountId, { apiId: wanted.toLowerCase() });
    if (!group) throw new ApiError('312');
    return group;
  }

  function existingLinkError(existing: Link): ApiError {
    return new ApiError('305', undefined, { location: shortUrl(deps.baseUrl, existing.code) });
  }

  async function refuseDuplicateOrFull(owner: KeyOwner, target: TargetUrl, hash: string): Promise<void> {
    if (pointsAtOwnHost(target.parsed, deps.baseUrl))
      throw new ApiError('305', 'The URL points at this shortener.');
    const existing = await deps.store.findLiveLinkByUrlHash(owner.accountId, hash);
    if (existing) throw existingLinkError(existing);
    if ((await deps.store.countLiveLinks(owner.accountId)) >= owner.plan.urlQuota) throw new ApiError('304');
  }

  async function inspect(target: TargetUrl): Promise<string> {
    const outcome = await deps.inspector.inspect(target.parsed);
    if (!outcome.ok)
      throw new ApiError(outcome.code, `${ERROR_TABLE[outcome.code].message} (${outcome.reason})`);
    return outcome.title;
  }

  async function store(
    owner: KeyOwner,
    target: TargetUrl,
    hash: string,
    groupId: number | null,
    title: string,
  ) {
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt++) {
      const result = await deps.store.insertLinkWithinQuota({
        code: newCode(),
        accountId: owner.accountId,
        groupId,
        longUrl: target.longUrl,
        normalizedUrl: target.normalized,
        urlHash: hash,
        title,
      });
      if (result.kind === 'created') {
        deps.onCreated?.(result.link);
        return result.link;
      }
      if (result.kind === 'duplicate') throw existingLinkError(result.existing);
      if (result.kind === 'quota-exceeded') throw new ApiError('304');
    }
    throw new Error(`no free short code after ${CODE_ATTEMPTS} attempts`);
  }

  return async function createLink(request: CreateLinkRequest): Promise<CreatedLink> {
    await guardFailedKeys(request.clientAddress);
    const owner = await authenticate(request.apiKey, request.clientAddress);
    const headers = await spendRate(owner, request.clientAddress);
    try {
      if (request.url === undefined || request.url.trim() === '') throw new ApiError('302');
      const target = parseTargetUrl(request.url);
      if (!target)
        throw new ApiError('300', 'The url must be an absolute http(s) URL of at most 2,048 characters.');
      const group = await findGroup(owner.accountId, request.group);
      if (deps.isSocial(target.parsed.hostname)) throw new ApiError('310');
      const hash = urlHash(target.normalized);
      await refuseDuplicateOrFull(owner, target, hash);
      const title = await inspect(target);
      const link = await store(owner, target, hash, group?.id ?? null, title);
      return { link, headers };
    } catch (error) {
      if (error instanceof ApiError)
        throw new ApiError(error.code, error.message, { ...headers, ...error.headers });
      throw error;
    }
  };
}

export function shortUrl(baseUrl: URL, code: string): string {
  return `${baseUrl.href.replace(/\/$/, '')}/${code}`;
}

export function qrCodeUrl(baseUrl: URL, code: string): string {
  return `${baseUrl.href.replace(/\/$/, '')}/qrcode/${code}.png`;
}
