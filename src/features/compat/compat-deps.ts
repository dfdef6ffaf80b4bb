import type { MainKeys } from '../../core/key-authentication.ts';
import type { Authenticated, KeyAuthenticator } from '../../core/ports/key-auth.ts';
import type {
  AccountStore,
  GroupStore,
  LinkStore,
  StatsStore,
  UpkeepStore,
  WorkspaceStore,
} from '../../core/ports/store.ts';
import type { TagStore, VisitListStore } from '../../core/ports/tag-store.ts';
import type { Scope } from '../../core/scopes.ts';
import type { LinkOrigins } from '../../core/short-url.ts';
import type { AddressedDomain } from '../domains/index.ts';
import type { LinksApi } from '../links/index.ts';

/**
 * What the compatibility APIs (docs/api.md §15) are built on: Snip's own keys, links, tags, visits
 * and domains. Each API only reads its client's request into these and Snip's answer (or refusal)
 * back into its client's shapes; every check of a create or an edit stays in the links feature.
 */
export interface CompatDeps {
  /**
   * A presented Snip key, for a scope (undefined: any live key): the failed-key limiter (429), no
   * key (301), a key that is not live or whose plan has no API access (303), the workspace's hourly
   * window spent (429), the scope missing (315). Every request of a compatibility API counts.
   */
  keys: KeyAuthenticator;
  /**
   * An email and password (YOURLS `username` + `password`) acting as that user's personal workspace
   * with its main key: the sign-in's own throttle (`sign-in-throttled`), `sign-in-failed` for a wrong
   * pair, `account-suspended`, then what `keys` answers for the main key.
   */
  passwordKeys(
    email: string,
    password: string,
    clientAddress: string,
    scope: Scope | undefined,
  ): Promise<Authenticated>;
  /**
   * The links of /api/v1 as its resources: `create` runs every check of docs/api.md §2.3 in order
   * (inspection, social 310, blocklist 316, quota 304, a URL the workspace already shortened 305
   * with `facts.existingCode`/`existingDomainId`); `get`/`patch`/`remove` answer 314 for a code the
   * workspace has no live link with, 317 for a domain it does not see.
   */
  links: LinksApi;
  store: Pick<
    AccountStore &
      GroupStore &
      LinkStore &
      StatsStore &
      TagStore &
      UpkeepStore &
      VisitListStore &
      WorkspaceStore,
    | 'listLinks'
    | 'findLinkOfWorkspace'
    | 'listGroups'
    | 'tagsOf'
    | 'stats'
    | 'countLiveLinks'
    | 'tagStats'
    | 'renameTag'
    | 'deleteTags'
    | 'listVisits'
    | 'findWorkspaceById'
    | 'findUserById'
    | 'ping'
  >;
  /** Each domain's host and origin (short URLs, QR codes). */
  origins: LinkOrigins;
  /** The domain a host names for the workspace (317 for one it does not see); its default when undefined or ''. */
  domainOf: AddressedDomain;
  /** The hosts the workspace's new links may go on (the default domain's first), and its default. */
  domainChoices(workspaceId: number): { hosts: string[]; chosen: string };
  /** Where a domain sends `/` and unknown codes (null: Snip's landing or 404 page). */
  redirectsOf(host: string): { root: string | null; notFound: string | null };
  now: () => number;
  baseUrl: URL;
  /** Snip's version (package.json). */
  version: string;
  /** How long raw visits are kept (ANALYTICS_RETENTION_DAYS). */
  retentionDays: number;
}

/** How a compatibility API proves who calls: Snip keys, or a password acting as the personal workspace. */
export function passwordKeysOf(
  signIn: (email: string, password: string, clientAddress: string) => Promise<{ id: number }>,
  personalWorkspaceOf: (userId: number) => Promise<number | undefined>,
  workspaceKeys: MainKeys,
): CompatDeps['passwordKeys'] {
  return async (email, password, clientAddress, scope) => {
    const user = await signIn(email, password, clientAddress);
    const workspaceId = await personalWorkspaceOf(user.id);
    return workspaceKeys(workspaceId ?? 0, clientAddress, scope);
  };
}
