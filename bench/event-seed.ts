/**
 * Synthetic click events for the stats bench, one UTC day at a time, with the per-day aggregates
 * that the store's write path would have made of them (link and account scope): so a bulk load
 * answers exactly as if every event had gone through addClicks. Deterministic (a seeded PRNG).
 */

export interface SeedShape {
  events: number;
  days: number;
  /** Link ids, in the order links are picked; `links[0]` is the hot link. */
  links: readonly number[];
  /** The account of each link, by index. */
  accountOf: readonly number[];
  /** Share of all events that go to the hot link. */
  hotShare: number;
  /** Day number of the last (newest) day seeded. */
  lastDay: number;
}

/** [link_id, workspace_id, at, visitor, referrer, country, device, os, browser, language, source] */
export type EventTuple = [
  number,
  number,
  number,
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
];
/** [id, day, clicks, bot hits, visitors] */
export type DayTuple = [number, number, number, number, number];
/** [id, day, dimension, value, clicks] */
export type StatTuple = [number, number, string, string, number];

export interface SeedDay {
  day: number;
  /** Sorted by time, as the redirect would have flushed them. */
  events: EventTuple[];
  linkDays: DayTuple[];
  workspaceDays: DayTuple[];
  linkStats: StatTuple[];
  workspaceStats: StatTuple[];
}

const DAY_MS = 86_400_000;
const VISITORS_PER_DAY = 40_000;
const BOT_SHARE = 0.05;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values with Zipf-like weights (the first most frequent), drawn through a 4096-slot table. */
class Vocabulary {
  readonly values: readonly string[];
  readonly #table: Uint16Array;
  constructor(values: readonly string[], skew = 1) {
    this.values = values;
    const weights = values.map((_, i) => 1 / (i + 1) ** skew);
    const total = weights.reduce((a, b) => a + b, 0);
    this.#table = new Uint16Array(4096);
    let slot = 0;
    let acc = 0;
    weights.forEach((weight, i) => {
      acc += weight / total;
      const end = i === weights.length - 1 ? 4096 : Math.round(acc * 4096);
      for (; slot < end; slot++) this.#table[slot] = i;
    });
  }
  pick(random: () => number): number {
    return this.#table[Math.floor(random() * 4096)] as number;
  }
}

const DIMENSIONS = [
  [
    'referrer',
    new Vocabulary([
      'direct',
      'google.com',
      't.co',
      'facebook.com',
      'linkedin.com',
      'reddit.com',
      'news.ycombinator.com',
      'bing.com',
      'duckduckgo.com',
      'instagram.com',
      ...Array.from({ length: 190 }, (_, i) => `site-${i}.example`),
    ]),
  ],
  [
    'country',
    new Vocabulary(
      'US DE GB FR IN BR CA JP NL ES IT PL SE AU MX KR TR ID CH BE AT NO DK FI IE PT CZ RO ZA ZZ'.split(' '),
    ),
  ],
  ['device', new Vocabulary(['mobile', 'desktop', 'tablet', 'other'], 1.5)],
  ['os', new Vocabulary(['Android', 'iOS', 'Windows', 'macOS', 'Linux', 'Chrome OS', 'Other'])],
  ['browser', new Vocabulary(['Chrome', 'Safari', 'Firefox', 'Edge', 'Samsung Internet', 'Opera', 'Other'])],
  ['language', new Vocabulary('en de fr es pt ja zh ru it nl pl ko tr sv ar unknown'.split(' '))],
  ['source', new Vocabulary(['link', 'qr'], 3)],
] as const;
const BOTS = new Vocabulary(['prefetch', 'head', 'Googlebot', 'bingbot', 'Slackbot', 'no-agent']);

/** A visitor id as an integer of 8 stored bytes (beyond 48 bits), below 2^53 so a JS number holds it. */
function visitorId(day: number, index: number): number {
  const hi = Math.imul(day ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index, 0xc2b2ae35);
  const lo = Math.imul(index ^ 0x27d4eb2f, 0x165667b1) ^ day;
  return 2 ** 52 + ((hi >>> 0) & 0xfffff) * 2 ** 32 + (lo >>> 0);
}

/** Counts per key, the key built from small integers. */
function bump(map: Map<number, number>, key: number, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

export function* seedDays(shape: SeedShape): Generator<SeedDay> {
  const random = mulberry32(42);
  const perDay = Math.floor(shape.events / shape.days);
  const others = shape.links.length - 1;
  const accountIds = [...new Set(shape.accountOf)];
  const accountIndex = new Map(accountIds.map((id, i) => [id, i]));
  for (let d = 0; d < shape.days; d++) {
    const day = shape.lastDay - shape.days + 1 + d;
    const count = d === shape.days - 1 ? shape.events - perDay * (shape.days - 1) : perDay;
    const events: EventTuple[] = [];
    // Keys: (scope index * 8 + dimension) * 256 + value index; visitors: scope index * 65536 + visitor.
    const linkStats = new Map<number, number>();
    const workspaceStats = new Map<number, number>();
    const linkClicks = new Map<number, number>();
    const linkBots = new Map<number, number>();
    const linkVisitors = new Set<number>();
    const accountVisitors = new Set<number>();
    for (let n = 0; n < count; n++) {
      const linkIndex = random() < shape.hotShare ? 0 : 1 + Math.floor(random() * others);
      const linkId = shape.links[linkIndex] as number;
      const workspaceId = shape.accountOf[linkIndex] as number;
      const a = accountIndex.get(workspaceId) as number;
      const visitor = Math.floor(random() * VISITORS_PER_DAY);
      const picks = DIMENSIONS.map(([, vocabulary]) => vocabulary.pick(random));
      events.push([
        linkId,
        workspaceId,
        day * DAY_MS + Math.floor(random() * DAY_MS),
        visitorId(day, visitor),
        ...(picks.map((pick, i) => DIMENSIONS[i]?.[1].values[pick]) as [
          string,
          string,
          string,
          string,
          string,
          string,
          string,
        ]),
      ]);
      picks.forEach((pick, i) => {
        bump(linkStats, (linkIndex * 8 + i) * 256 + pick);
        bump(workspaceStats, (a * 8 + i) * 256 + pick);
      });
      bump(linkClicks, linkIndex);
      linkVisitors.add(linkIndex * 65536 + visitor);
      accountVisitors.add(a * 65536 + visitor);
      if (random() < BOT_SHARE) {
        const kind = BOTS.pick(random);
        bump(linkBots, linkIndex);
        bump(linkStats, (linkIndex * 8 + 7) * 256 + kind);
        bump(workspaceStats, (a * 8 + 7) * 256 + kind);
      }
    }
    events.sort((x, y) => x[2] - y[2]);
    yield {
      day,
      events,
      ...dailyRows(shape, day, accountIds, {
        linkStats,
        workspaceStats,
        linkClicks,
        linkBots,
        linkVisitors,
        accountVisitors,
      }),
    };
  }
}

interface DaySums {
  linkStats: Map<number, number>;
  workspaceStats: Map<number, number>;
  linkClicks: Map<number, number>;
  linkBots: Map<number, number>;
  linkVisitors: Set<number>;
  accountVisitors: Set<number>;
}

function dailyRows(shape: SeedShape, day: number, accountIds: readonly number[], sums: DaySums) {
  const statRows = (map: Map<number, number>, idOf: (index: number) => number): StatTuple[] =>
    [...map].map(([key, clicks]) => {
      const pick = key % 256;
      const dim = Math.floor(key / 256) % 8;
      const scope = Math.floor(key / 2048);
      const [name, vocabulary] =
        dim === 7 ? (['bot', BOTS] as const) : (DIMENSIONS[dim] as (typeof DIMENSIONS)[number]);
      return [idOf(scope), day, name, vocabulary.values[pick] as string, clicks];
    });
  const visitorsOf = (set: Set<number>) => {
    const counts = new Map<number, number>();
    for (const key of set) bump(counts, Math.floor(key / 65536));
    return counts;
  };
  const linkVisitors = visitorsOf(sums.linkVisitors);
  const accountVisitors = visitorsOf(sums.accountVisitors);
  const linkIndexes = new Set([...sums.linkClicks.keys(), ...sums.linkBots.keys()]);
  const linkDays: DayTuple[] = [];
  const workspaceDays = new Map<number, DayTuple>();
  for (const i of linkIndexes) {
    const [clicks, bots] = [sums.linkClicks.get(i) ?? 0, sums.linkBots.get(i) ?? 0];
    linkDays.push([shape.links[i] as number, day, clicks, bots, linkVisitors.get(i) ?? 0]);
    const workspaceId = shape.accountOf[i] as number;
    const row = workspaceDays.get(workspaceId) ?? [workspaceId, day, 0, 0, 0];
    row[2] += clicks;
    row[3] += bots;
    workspaceDays.set(workspaceId, row);
  }
  accountIds.forEach((id, i) => {
    const row = workspaceDays.get(id);
    if (row) row[4] = accountVisitors.get(i) ?? 0;
  });
  return {
    linkDays,
    workspaceDays: [...workspaceDays.values()],
    linkStats: statRows(sums.linkStats, (i) => shape.links[i] as number),
    workspaceStats: statRows(sums.workspaceStats, (i) => accountIds[i] as number),
  };
}
