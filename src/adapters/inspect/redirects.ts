import type { InspectOutcome } from '../../core/ports/inspector.ts';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

type Refusal = Extract<InspectOutcome, { ok: false }>;

function refuse(reason: string): Refusal {
  return { ok: false, code: '306', reason, cause: 'redirect' };
}

/** Identity of a hop for loop detection; the fragment never reaches the server. */
export function hopKey(url: URL): string {
  return url.href.replace(/#.*$/s, '');
}

/**
 * The URL to fetch next after a redirect to `location` from `current`, or why the chain stops.
 * `followed` counts the redirects already followed, `seen` holds the hops already fetched.
 */
export function nextHop(
  current: URL,
  location: string,
  followed: number,
  maxRedirects: number,
  seen: ReadonlySet<string>,
): URL | Refusal {
  const next = URL.parse(location, current.href);
  if (next === null) return refuse('redirect to an invalid Location');
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    return refuse(`redirect to a ${next.protocol} URL`);
  }
  if (seen.has(hopKey(next))) return refuse('redirect loop');
  if (followed >= maxRedirects) return refuse(`more than ${maxRedirects} redirects`);
  return next;
}
