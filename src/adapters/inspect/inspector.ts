import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import type { InspectOutcome, Inspector } from '../../core/ports/inspector.ts';
import { nonPublicRange } from './address-policy.ts';
import { BlockedAddressError } from './blocked-address-error.ts';
import { bodyMatters, classify } from './classify.ts';
import { mayHoldTitle } from './media-type.ts';
import { type AddressCheck, createPinnedAgent } from './pinned-agent.ts';
import { discardBody, readCapped } from './read-body.ts';
import { hopKey, nextHop, REDIRECT_STATUSES } from './redirects.ts';
import { describeTransportError } from './transport-error.ts';
import type { InspectorOptions, ResolvedAddress, Resolver } from './types.ts';

const WAF_BODY_BYTES = 64 * 1024;
const TITLE_READ_STOPS = ['</title', '</head'];
const REQUEST_HEADERS = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  accept: 'text/html,*/*',
  // Servers rarely compress unasked, but saying so keeps a compressed body away from the title parser.
  'accept-encoding': 'identity',
};

const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: 'verbatim' })) as ResolvedAddress[];

function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** URL literals never reach the lookup (net.connect skips it for IPs), so they are checked here. */
function assertLiteralAllowed(url: URL, check: AddressCheck): void {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) === 0) return;
  const range = check(host);
  if (range !== undefined) throw new BlockedAddressError(host, range);
}

/** Like createInspector, with the address rule supplied; lets tests stand a loopback in for a public host. */
export function createInspectorWithAddressCheck(options: InspectorOptions, check: AddressCheck): Inspector {
  const timeoutMs = options.timeoutMs ?? 5000;
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBodyBytes = options.maxBodyBytes ?? 512 * 1024;
  const agent = createPinnedAgent({ resolve: options.resolve ?? systemResolver, check, timeoutMs });

  async function finish(url: URL, response: Dispatcher.ResponseData<unknown>): Promise<InspectOutcome> {
    const { statusCode: status, headers, body } = response;
    const contentType = firstHeader(headers['content-type']);
    const declaresEmpty = firstHeader(headers['content-length'])?.trim() === '0';
    let prefix: Uint8Array = new Uint8Array(0);
    if (status >= 200 && status <= 299 && !declaresEmpty && mayHoldTitle(contentType)) {
      prefix = await readCapped(body, maxBodyBytes, TITLE_READ_STOPS);
    } else if (bodyMatters(status)) {
      prefix = await readCapped(body, Math.min(WAF_BODY_BYTES, maxBodyBytes));
    } else {
      discardBody(body);
    }
    const verdict = classify({ status, headers, body: prefix });
    // The status rides along for link health (docs/api.md §21), which shows it.
    if (!verdict.ok) return { ...verdict, status };
    // The HTML parser is loaded by the first title read, not at start (docs/adr/053).
    const { extractTitle } = await import('./title.ts');
    return { ok: true, title: extractTitle(prefix, contentType), finalUrl: url.href, status };
  }

  async function follow(start: URL, signal: AbortSignal): Promise<InspectOutcome> {
    const seen = new Set<string>();
    let url = start;
    for (let followed = 0; ; followed++) {
      assertLiteralAllowed(url, check);
      if (options.blockedHost?.(url.hostname)) {
        return { ok: false, code: '316', reason: 'a redirect leads to a host on a blocklist' };
      }
      seen.add(hopKey(url));
      const response = await agent.request(url, { method: 'GET', headers: REQUEST_HEADERS, signal });
      const location = REDIRECT_STATUSES.has(response.statusCode)
        ? firstHeader(response.headers.location)
        : undefined;
      if (location === undefined) return await finish(url, response);
      discardBody(response.body);
      const next = nextHop(url, location, followed, maxRedirects, seen);
      if (!(next instanceof URL)) return next;
      url = next;
    }
  }

  return {
    async inspect(url) {
      const controller = new AbortController();
      const timedOut: InspectOutcome = {
        ok: false,
        code: '306',
        reason: `timed out after ${timeoutMs} ms`,
        cause: 'timeout',
      };
      let timer: NodeJS.Timeout | undefined;
      // Races the work so that nothing (not even a resolver that never answers) outlives the deadline.
      const deadline = new Promise<InspectOutcome>((resolve) => {
        timer = setTimeout(() => {
          resolve(timedOut);
          controller.abort();
        }, timeoutMs);
      });
      try {
        return await Promise.race([follow(url, controller.signal), deadline]);
      } catch (error) {
        return controller.signal.aborted
          ? timedOut
          : { ok: false, code: '306', ...describeTransportError(error) };
      } finally {
        clearTimeout(timer);
      }
    },
    // destroy, not close: an in-flight inspection must not hold shutdown up; it answers 306.
    close: () => agent.destroy(),
  };
}

/** The target inspector of docs/api.md §2.7: safe fetch, redirects, classification and title. */
export function createInspector(options: InspectorOptions): Inspector {
  return createInspectorWithAddressCheck(options, options.allowPrivate ? () => undefined : nonPublicRange);
}
