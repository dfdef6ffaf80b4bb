import type { Actor } from '../../../core/entities.ts';
import { DEFAULT_DOMAIN_ID } from '../../../core/link-key.ts';
import type { CompatDeps } from '../compat-deps.ts';
import { kuttError } from './kutt-errors.ts';
import { fieldsOf } from './kutt-input.ts';

/**
 * Kutt's `users` and `domains` on Snip. A Kutt user is the workspace the key belongs to; its domains
 * are the hosts besides the default one that its links may go on, each named by its host (Kutt's id
 * is a UUID). Snip adds a domain only once its DNS proves it, which a Kutt client cannot show, so
 * `domains` adds and removes nothing here: adding one the workspace already has answers it, anything
 * else is refused in Kutt's form, pointing at Snip's own domains.
 */

export interface KuttDomain {
  id: string;
  address: string;
  banned: boolean;
  homepage: string;
}

export interface KuttUser {
  apikey: string;
  email: string;
  domains: KuttDomain[];
}

export function kuttAccount(deps: CompatDeps) {
  const defaultHost = () => deps.origins.hostOf(DEFAULT_DOMAIN_ID);
  const domain = (host: string): KuttDomain => ({
    id: host,
    address: host,
    banned: false,
    homepage: defaultHost(),
  });
  const hostsOf = (actor: Actor) =>
    deps.domainChoices(actor.workspaceId).hosts.filter((host) => host !== defaultHost());

  return {
    /** The key as sent (Snip keeps only its hash); its maker's email (the workspace's name for an operator's key). */
    async user(actor: Actor, makerId: number | null, key: string): Promise<KuttUser> {
      const maker = makerId === null ? undefined : await deps.store.findUserById(makerId);
      const email = maker?.email ?? (await deps.store.findWorkspaceById(actor.workspaceId))?.name ?? '';
      return { apikey: key, email, domains: hostsOf(actor).map(domain) };
    },

    addDomain(actor: Actor, body: unknown): KuttDomain {
      const address = fieldsOf(body).address;
      if (typeof address !== 'string' || address.trim() === '') throw kuttError(400, 'Domain is not valid.');
      if (address.trim().length < 3 || address.trim().length > 64) {
        throw kuttError(400, 'Domain length must be between 3 and 64.');
      }
      const host = hostOf(address.trim());
      if (host === undefined) throw kuttError(400, 'Domain is not valid.');
      if (host === defaultHost()) throw kuttError(400, "You can't use the default domain.");
      if (!hostsOf(actor).includes(host)) {
        throw kuttError(
          400,
          "You can't add this domain here: add it in Snip (the dashboard or /api/v1/domains), where its DNS " +
            'record is checked; it shows here once verified.',
        );
      }
      return domain(host);
    },

    removeDomain(): never {
      throw kuttError(
        400,
        "Could not delete the domain: Snip's domains are removed in Snip (the dashboard or /api/v1/domains).",
      );
    },

    /** Kutt's health is a plain OK; Snip's also needs its store to answer. */
    async healthy(): Promise<boolean> {
      try {
        await deps.store.ping();
        return true;
      } catch {
        return false;
      }
    },
  };
}

/** A domain as Kutt takes it: a host, or a URL whose host it is, without "www.", lower case. */
function hostOf(address: string): string | undefined {
  try {
    const url = new URL(/^(\w+:|\/\/)/.test(address) ? address : `http://${address}`);
    return url.hostname === '' ? undefined : url.hostname.replace(/^www\./, '').toLowerCase();
  } catch {
    return undefined;
  }
}
