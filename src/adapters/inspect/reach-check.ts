import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicRange } from './address-policy.ts';
import type { ResolvedAddress, Resolver } from './types.ts';

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })) as ResolvedAddress[];

/**
 * Whether Snip may send to a URL's host, judged when an endpoint is saved (docs/api.md §14): an
 * address literal, or every address its name resolves to now, must be public unless private ones
 * are allowed. A name that does not resolve yet is let through: each delivery resolves it again
 * and connects only to an address it checked (webhook-sender.ts).
 */
export function reachCheck(options: { allowPrivate: boolean; resolve?: Resolver; timeoutMs?: number }) {
  const resolve = options.resolve ?? systemResolver;
  const timeoutMs = options.timeoutMs ?? 2000;
  return async (url: URL): Promise<boolean> => {
    if (options.allowPrivate) return true;
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0) return nonPublicRange(host) === undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((done) => {
      timer = setTimeout(() => done(undefined), timeoutMs);
    });
    try {
      const addresses = await Promise.race([resolve(host), late]);
      return (addresses ?? []).every(({ address }) => nonPublicRange(address) === undefined);
    } catch {
      return true;
    } finally {
      clearTimeout(timer);
    }
  };
}
