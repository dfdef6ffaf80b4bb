import { isbot } from 'isbot';

/**
 * Which requests of a short link are clicks (docs/api.md §4): a browser's GET counts; HEAD, prefetch and
 * prerender requests, bots and link-preview fetchers are redirected too but tallied apart as bot hits.
 */
export type ClickKind = 'human' | 'bot';

export interface RedirectRequestFacts {
  method: string;
  userAgent: string | undefined;
  /** Sec-Purpose, Purpose, X-Purpose and X-Moz, joined: any of them may announce a prefetch. */
  purpose: string;
}

const SPECULATIVE = /\b(prefetch|prerender|preview)\b/i;

// isbot tries a long pattern (about 2.5 µs a call); the same few User-Agents come back again and
// again, so verdicts are remembered, the memory bounded by starting over when it is full.
const MEMORY = 4096;
const verdicts = new Map<string, boolean>();

function isBotAgent(userAgent: string): boolean {
  let verdict = verdicts.get(userAgent);
  if (verdict === undefined) {
    verdict = isbot(userAgent);
    if (verdicts.size >= MEMORY) verdicts.clear();
    verdicts.set(userAgent, verdict);
  }
  return verdict;
}

export function clickKind(facts: RedirectRequestFacts): ClickKind {
  if (facts.method !== 'GET') return 'bot';
  if (SPECULATIVE.test(facts.purpose)) return 'bot';
  // No User-Agent at all is a script, not a browser.
  if (!facts.userAgent || isBotAgent(facts.userAgent)) return 'bot';
  return 'human';
}
