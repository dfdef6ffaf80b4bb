import { timingSafeEqual } from 'node:crypto';
import { clientKey } from '../../core/client-key.ts';
import type { Group, KeyOwner } from '../../core/entities.ts';
import { Refusal } from '../../core/errors.ts';
import { type KeyAuthenticationDeps, keyAuthentication } from '../../core/key-authentication.ts';
import { UNKNOWN_HEALTH } from '../../core/link-health.ts';
import type { KeyAuthenticator } from '../../core/ports/key-auth.ts';
import type { LinkStore } from '../../core/ports/store.ts';
import { SCOPES } from '../../core/scopes.ts';
import type { CreateLinkStore } from '../links/index.ts';

/** Demo mode (docs/api.md §3): the /create story with the demo key and a store that keeps nothing. */

const DEMO_ACCOUNT_ID = 0;

/** The two ways to name the one demo group, so both 312 and a valid group can be tried. */
export const DEMO_GROUP: Group = {
  id: 1,
  workspaceId: DEMO_ACCOUNT_ID,
  name: 'Demo',
  apiId: 'demo',
  createdAt: new Date(0),
};

const DEMO_OWNER: KeyOwner = {
  keyId: 0,
  hash: Buffer.alloc(32),
  prefix: 'demo',
  revoked: false,
  workspaceId: DEMO_ACCOUNT_ID,
  userId: null,
  role: 'member',
  plan: { id: 0, name: 'demo', apiAccess: true, urlQuota: Number.MAX_SAFE_INTEGER, rateLimitPerHour: 0 },
  scopes: SCOPES,
  suspended: false,
};

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface DemoKeyOptions extends Omit<KeyAuthenticationDeps, 'identify' | 'windowOf'> {
  demoKey: string;
  /** Requests per client address and window (default 30 per minute). */
  limit: number;
  windowMs: number;
}

/** Only the public demo key passes; the limit is per client address. */
export function demoKeys(options: DemoKeyOptions): KeyAuthenticator {
  const { demoKey, limit, windowMs, ...rest } = options;
  return keyAuthentication({
    ...rest,
    async identify(key) {
      if (sameText(key, demoKey)) return DEMO_OWNER;
      throw new Refusal('303', 'The demo accepts only the public demo key; account keys work on /create.');
    },
    windowOf: (_owner, clientAddress) => ({
      key: `demo:{${clientKey(clientAddress)}}`,
      limit,
      lengthMs: windowMs,
      spentMessage: 'This address has spent its demo requests for now.',
    }),
  });
}

/**
 * Keeps nothing: no duplicates, no quota, and a fresh code that resolves nowhere. It only reads the
 * real store to be sure the simulated code is not a real link's.
 */
export function demoLinkStore(real: Pick<LinkStore, 'isCodeIssued'>): CreateLinkStore {
  return {
    async findGroupOfWorkspace(_accountId, ref) {
      return ('id' in ref ? ref.id === DEMO_GROUP.id : ref.apiId === DEMO_GROUP.apiId)
        ? DEMO_GROUP
        : undefined;
    },
    async findLiveLinkByUrlHash() {
      return undefined;
    },
    async countLiveLinks() {
      return 0;
    },
    async isCodeIssued(domainId, code) {
      return real.isCodeIssued(domainId, code);
    },
    async insertLinkWithinQuota(link) {
      if (await real.isCodeIssued(link.domainId, link.code)) return { kind: 'code-taken' };
      const at = new Date();
      const { guards, tags: _tags, ...fields } = link;
      const stored = {
        ...fields,
        id: 0,
        clicks: 0,
        botHits: 0,
        uniqueVisitors: 0,
        createdAt: at,
        updatedAt: at,
        expiresAt: guards?.expiresAt ?? null,
        maxClicks: guards?.maxClicks ?? null,
        disabled: null,
        limitUsed: 0,
        passwordHash: guards?.passwordHash ?? null,
        rules: guards?.rules ?? [],
        forwardQuery: guards?.forwardQuery ?? false,
        preview: guards?.preview ?? null,
        archived: false,
        lastClickedAt: null,
        publicStats: link.publicStats ?? false,
        trackConversions: null,
        tracksConversions: false,
        leads: 0,
        sales: 0,
        revenue: {},
        test: null,
        health: UNKNOWN_HEALTH,
      };
      return { kind: 'created', link: stored };
    },
  };
}
