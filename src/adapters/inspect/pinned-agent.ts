import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { BlockedAddressError } from './blocked-address-error.ts';
import type { ResolvedAddress, Resolver } from './types.ts';

/** Returns the refused range of an address, or undefined when the inspector may connect to it. */
export type AddressCheck = (address: string) => string | undefined;

export interface PinnedAgentOptions {
  resolve: Resolver;
  check: AddressCheck;
  /** Bounds a resolver that never answers; the inspector's own deadline bounds everything else. */
  timeoutMs: number;
}

function dnsError(code: string, hostname: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${message}: ${hostname}`), { code, hostname });
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, hostname: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(dnsError('ETIMEOUT', hostname, 'DNS lookup timed out')), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves once, refuses the host if ANY of its addresses is refused, and hands net.connect only the
 * addresses it checked, so the socket cannot reach an address that a second lookup (DNS rebinding) returned.
 */
async function checkedAddresses(
  hostname: string,
  family: number | undefined,
  { resolve, check, timeoutMs }: PinnedAgentOptions,
): Promise<LookupAddress[]> {
  const resolved: ResolvedAddress[] = await withTimeout(resolve(hostname), timeoutMs, hostname);
  for (const { address } of resolved) {
    const range = check(address);
    if (range !== undefined) throw new BlockedAddressError(address, range);
  }
  const usable = resolved.filter((entry) => !family || entry.family === family);
  if (usable.length === 0) throw dnsError('ENOTFOUND', hostname, 'no usable address');
  return usable.map(({ address, family }) => ({ address, family }));
}

function pinnedLookup(options: PinnedAgentOptions): LookupFunction {
  return (hostname: string, lookupOptions: LookupOptions, callback) => {
    const { family } = lookupOptions;
    const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family;
    checkedAddresses(hostname, wanted, options).then(
      (addresses) => {
        const first = addresses[0] as LookupAddress;
        if (lookupOptions.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

type Undici = typeof import('undici');
type RequestOptions = Omit<NonNullable<Parameters<Undici['request']>[1]>, 'dispatcher'>;

let undiciLoaded: Promise<Undici> | undefined;
/**
 * undici, imported by the first outbound request rather than at start: ~0.1 s of a server's start
 * CPU for inspections, webhooks and blocklists that may never come (docs/adr/053).
 */
const undici = (): Promise<Undici> => (undiciLoaded ??= import('undici'));

/** Requests through one undici Agent; undici and the agent are made by the first request. */
export interface PinnedAgent {
  request(url: URL, options: RequestOptions): Promise<Dispatcher.ResponseData<unknown>>;
  destroy(): Promise<void>;
}

/** One undici Agent whose every connection goes through the checked, pinned lookup. */
export function createPinnedAgent(options: PinnedAgentOptions): PinnedAgent {
  let made: Promise<[Undici, Agent]> | undefined;
  const agent = () =>
    (made ??= undici().then((module) => [
      module,
      new module.Agent({
        connect: { lookup: pinnedLookup(options), timeout: options.timeoutMs },
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      }),
    ]));
  return {
    async request(url, init) {
      const [module, dispatcher] = await agent();
      return module.request(url, { ...init, dispatcher });
    },
    async destroy() {
      if (made) await (await made)[1].destroy();
    },
  };
}
