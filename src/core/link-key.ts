/**
 * A link's address across domains as one string: the cache, the fast path and the change events
 * between instances key on it. The default domain's links are keyed by their code alone (so the
 * hot path builds nothing for them); another domain's as "<domain id>/<code>" ("/" is never in a code).
 */

/** The default domain: BASE_URL's host, whatever it is configured to. */
export const DEFAULT_DOMAIN_ID = 0;

/** What a domain's keys start with: '' for the default domain. */
export function linkKeyPrefix(domainId: number): string {
  return domainId === DEFAULT_DOMAIN_ID ? '' : `${domainId}/`;
}

export function linkKey(domainId: number, code: string): string {
  return domainId === DEFAULT_DOMAIN_ID ? code : `${domainId}/${code}`;
}

export function parseLinkKey(key: string): { domainId: number; code: string } {
  const slash = key.indexOf('/');
  if (slash < 0) return { domainId: DEFAULT_DOMAIN_ID, code: key };
  return { domainId: Number(key.slice(0, slash)), code: key.slice(slash + 1) };
}

/** The change event that says the domains changed (every instance reloads them); never a link's key. */
export const DOMAINS_CHANGED = '*domains';

/** The change event that says a workspace's conversion tracking changed: cached links are dropped. */
export const TRACKING_CHANGED = '*tracking';

/** The change event that says blocklists or suspensions changed (every instance reads them again). */
export const ABUSE_CHANGED = '*abuse';
