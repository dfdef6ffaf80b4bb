import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { nonPublicRange } from './address-policy.ts';
import { type AddressCheck, createPinnedAgent } from './pinned-agent.ts';
import { readCapped } from './read-body.ts';
import type { ResolvedAddress, Resolver } from './types.ts';

export interface ListFetchOptions {
  /** Lifts the non-public address guard (ALLOW_PRIVATE_TARGETS). */
  allowPrivate: boolean;
  resolve?: Resolver;
  /** Overall deadline; default 60 s. */
  timeoutMs?: number;
  /** Bytes read at most; a longer file is refused rather than cut (default 64 MiB). */
  maxBytes?: number;
}

/** A list could not be fetched: the reason names no address and no library's error text. */
export class ListFetchError extends Error {}

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })) as ResolvedAddress[];

/**
 * Fetches a blocklist (BLOCKLIST_URLS, docs/api.md §13) through the same guard as target inspection:
 * every resolved address checked and the connection pinned to it, no redirects followed, a deadline
 * and a size cap. Returns the body as UTF-8 text.
 */
export function listFetcher(options: ListFetchOptions) {
  const check: AddressCheck = options.allowPrivate ? () => undefined : nonPublicRange;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const agent = createPinnedAgent({ resolve: options.resolve ?? systemResolver, check, timeoutMs });
  return {
    async fetch(url: string): Promise<string> {
      const parsed = URL.parse(url);
      if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
        throw new ListFetchError('not an http(s) URL');
      }
      const literal = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
      if (isIP(literal) !== 0 && check(literal) !== undefined)
        throw new ListFetchError('a non-public address');
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const response = await agent.request(parsed, { method: 'GET', signal });
        if (response.statusCode !== 200) {
          response.body.destroy();
          throw new ListFetchError(`answered ${response.statusCode}`);
        }
        const body = await readCapped(response.body, maxBytes + 1);
        if (body.length > maxBytes) throw new ListFetchError(`longer than ${maxBytes} bytes`);
        return Buffer.from(body).toString('utf8');
      } catch (error) {
        if (error instanceof ListFetchError) throw error;
        throw new ListFetchError(signal.aborted ? 'timed out' : 'could not be fetched');
      }
    },
    close: () => agent.destroy(),
  };
}

export type ListFetcher = ReturnType<typeof listFetcher>;
