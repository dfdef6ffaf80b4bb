/**
 * What the primary of `snip serve --processes N` and its workers say to each other over the IPC
 * channel node:cluster opens (docs/adr/052). Every message carries `snip` so that messages of node
 * itself or of a library are told apart.
 */

/** The environment variable that gives a worker its slot, 1..N: the `worker` label of its series. */
export const WORKER_SLOT_VARIABLE = 'SNIP_WORKER_SLOT';

/** A worker asks for every worker's series because /metrics was asked of it. */
export interface ScrapeAsked {
  snip: 'scrape';
  id: number;
}

/** The primary's answer: the Prometheus text of every worker, or undefined when none answered. */
export interface ScrapeAnswered {
  snip: 'scraped';
  id: number;
  text: string | undefined;
}

/** The primary asks one worker for its own series. */
export interface SeriesAsked {
  snip: 'series';
  id: number;
}

/** A worker's own series, as prom-client's getMetricsAsJSON() gives them. */
export interface SeriesAnswered {
  snip: 'series';
  id: number;
  series: unknown[];
}

export type SnipMessage = ScrapeAsked | ScrapeAnswered | SeriesAsked | SeriesAnswered;

export function isSnipMessage(message: unknown): message is SnipMessage {
  return typeof message === 'object' && message !== null && 'snip' in message && 'id' in message;
}

/** How long a scrape waits for the workers' series; a worker that has not answered by then is left out. */
export const SCRAPE_WAIT_MS = 2000;
