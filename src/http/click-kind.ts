import { isbotMatch } from 'isbot';

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
/** The bot's name for a bot's User-Agent, '' for a browser's. */
const verdicts = new Map<string, string>();
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,39}/;

function botNameOf(userAgent: string): string {
  let verdict = verdicts.get(userAgent);
  if (verdict === undefined) {
    const match = isbotMatch(userAgent);
    // "curl/8.0" and "Googlebot/2.1" name curl and googlebot: the name without its version.
    verdict = match === null ? '' : (NAME.exec(match)?.[0].toLowerCase() ?? 'bot');
    if (verdicts.size >= MEMORY) verdicts.clear();
    verdicts.set(userAgent, verdict);
  }
  return verdict;
}

export function clickKind(facts: RedirectRequestFacts): ClickKind {
  if (facts.method !== 'GET') return 'bot';
  if (SPECULATIVE.test(facts.purpose)) return 'bot';
  // No User-Agent at all is a script, not a browser.
  if (!facts.userAgent || botNameOf(facts.userAgent) !== '') return 'bot';
  return 'human';
}

/**
 * What kind of bot hit a link, for the `bots` breakdown (docs/api.md §9.4): `head` and `prefetch`
 * requests, `no-agent`, or the name the bot list matched (`googlebot`, `curl`, `slackbot-…`).
 */
export function botKindOf(facts: RedirectRequestFacts): string {
  if (facts.method !== 'GET') return facts.method === 'HEAD' ? 'head' : 'other';
  if (SPECULATIVE.test(facts.purpose)) return 'prefetch';
  if (!facts.userAgent) return 'no-agent';
  return botNameOf(facts.userAgent) || 'other';
}
