/**
 * What a blocklist of a million host rules costs (SPEC §13: under 64 MB, and under 1 µs a redirect):
 * the heap the matching set takes, and the time of one `matches` for a blocked host, for a 4-label
 * host no rule blocks, and on the empty set. Not a test; run it alone:
 *
 *   node_modules/.bin/node --expose-gc --disable-warning=ExperimentalWarning bench/blocklist-memory.ts
 */
import { HostRuleSet } from '../src/core/host-rules.ts';

const RULES = 1_000_000;
const QUERIES = 100_000;
const ROUNDS = 20;
const WORDS = ['ads', 'track', 'cdn', 'pixel', 'stats', 'promo', 'click', 'metrics', 'beacon', 'banner'];
const TLDS = ['com', 'net', 'org', 'io', 'xyz', 'info', 'co.uk', 'de', 'ru', 'top'];

/** What was measured. */
export interface BlocklistMemory {
  rules: number;
  mb: number;
  nsHit: number;
  nsMiss: number;
  nsEmpty: number;
}

/** The i-th rule: hosts like "pixel17.track4821.net", a third of them blocked with their subdomains. */
function ruleHost(i: number): string {
  const word = WORDS[i % WORDS.length] as string;
  const site = WORDS[(i >> 4) % WORDS.length] as string;
  return `${word}${i % 97}.${site}${i}.${TLDS[i % TLDS.length]}`;
}

/**
 * The string as one flat copy: a template literal's result is a tree of pieces, flattened (and its
 * pieces dropped) by the first lookup, which would move heap between the two measures.
 */
function flat(text: string): string {
  return Buffer.from(text).toString();
}

/** Runs the garbage collector to the end, so heapUsed counts only what is alive. */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  gc();
  gc();
}

/** The heap in use, typed arrays' buffers included, in MB. */
function heapMb(): number {
  const usage = process.memoryUsage();
  return (usage.heapUsed + usage.arrayBuffers) / 2 ** 20;
}

/** Nanoseconds per `matches` over the hosts, `passes` times each round, the best of a few rounds. */
function nsPerMatch(set: HostRuleSet, hosts: readonly string[], passes = 1): number {
  let best = Number.POSITIVE_INFINITY;
  let found = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // The thread's CPU time, not the wall clock: on a shared machine other processes' turns stay out.
    const start = process.threadCpuUsage();
    for (let pass = 0; pass < passes; pass++) for (const host of hosts) if (set.matches(host)) found++;
    const used = process.threadCpuUsage(start);
    const ns = ((used.user + used.system) * 1000) / (hosts.length * passes);
    best = Math.min(best, ns);
  }
  // Keeps the loop from being optimised away.
  if (found < 0) console.log(found);
  return best;
}

/** Builds a million rules and measures the set's heap and its lookups. */
export async function blocklistMemory(): Promise<BlocklistMemory> {
  const hosts = Array.from({ length: RULES }, (_, i) => flat(ruleHost(i)));
  collect();
  const before = heapMb();
  let set: HostRuleSet | undefined = new HostRuleSet();
  for (let i = 0; i < RULES; i++) set.add(hosts[i] as string, i % 3 === 0);
  collect();
  const mb = heapMb() - before;
  const hits = Array.from({ length: QUERIES }, (_, k) => {
    const i = (k * 7919) % RULES;
    return flat(i % 3 === 0 ? `www.${hosts[i]}` : (hosts[i] as string));
  });
  // "www.ads17.track4821.example": four labels, no rule for the host or any parent.
  const misses = Array.from({ length: QUERIES }, (_, k) =>
    flat(`www.${ruleHost(k)}`.replace(/\.[a-z.]+$/, '.example')),
  );
  const nsHit = nsPerMatch(set, hits);
  const nsMiss = nsPerMatch(set, misses);
  const nsEmpty = nsPerMatch(HostRuleSet.EMPTY, misses, 100);
  const rules = set.size;
  set = undefined;
  return { rules, mb: Math.round(mb * 10) / 10, nsHit, nsMiss, nsEmpty };
}

if (import.meta.main) {
  const result = await blocklistMemory();
  console.log(
    `${result.rules} rules: ${result.mb} MB; matches: hit ${result.nsHit.toFixed(0)} ns, ` +
      `4-label miss ${result.nsMiss.toFixed(0)} ns, empty set ${result.nsEmpty.toFixed(1)} ns`,
  );
}
