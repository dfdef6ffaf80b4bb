import { memoryOf, processTicks, processTree, type Started, threadTicks } from './processes.ts';
import { formatRun, type Run } from './report.ts';
import { runWrk, type WrkLoad } from './wrk.ts';

/** The runs of one `npm run bench`, each a warm-up then a measured wrk run, in the order they were made. */

export interface Measurement {
  target: string;
  /** The bare node:http server: the redirect runs after it get their ratio against it. */
  bare?: boolean;
  /** One wrk process per server, all at once. */
  servers: readonly Started[];
  script: 'redirect.lua' | 'redirect-hosts.lua' | 'create.lua';
  /** The script's environment; `tag` differs for every wrk process of the run (create.lua's URLs). */
  env: (tag: string) => Record<string, string>;
  /** Processes the servers rely on (PostgreSQL, Redis): their CPU is part of the run, not a disturbance. */
  supportPids?: () => Promise<number[]>;
  /** SQLite's run of the same request in this run, for the ratio. */
  sqlite?: Run;
  /** Another wrk load than -t2 -c64 (a bare run under it is the baseline only of runs under it). */
  load?: WrkLoad;
  /** Processes that warm apart (workers of `--processes N`): the warm-up is that many times longer. */
  warmers?: number;
}

const ratio = (run: Run, base: Run) => Number((run.requestsPerSecond / base.requestsPerSecond).toFixed(3));
/** Linux counts process CPU time in ticks of 10 ms (CLK_TCK = 100). */
const TICK_US = 10_000;
/** Every server's CPU, its workers' included (`snip serve --processes N`). */
const serverTicks = (servers: readonly Started[]) =>
  servers
    .flatMap((server) => processTree(server.child.pid as number))
    .reduce((sum, pid) => sum + processTicks(pid), 0);
const mainTicks = (servers: readonly Started[]) =>
  servers.reduce((sum, server) => sum + threadTicks(server.child.pid as number), 0);

export class Session {
  readonly runs: Run[] = [];
  readonly warmupS: number;
  readonly measureS: number;
  #bare: Run | undefined;
  readonly #bareRuns: Run[] = [];
  #tags = 0;

  constructor(warmupS: number, measureS: number) {
    this.warmupS = warmupS;
    this.measureS = measureS;
  }

  async measure(m: Measurement): Promise<Run> {
    const wrk = async (stage: string, seconds: number) => {
      const targets = m.servers.map((server, i) => ({
        url: server.url,
        env: { BENCH_SEED: String(i), ...m.env(`${stage}${++this.#tags}`) },
      }));
      const ourPids = [
        ...m.servers.flatMap((server) => processTree(server.child.pid as number)),
        ...((await m.supportPids?.()) ?? []),
      ];
      return runWrk({ targets, script: m.script, seconds, ourPids, load: m.load });
    };
    // Instances side by side share the cores, so each warms (JIT, link cache) that many times slower: a
    // single warm-up length left the first seconds of a two-instance run with stalls of up to a second.
    await wrk('warm', this.warmupS * m.servers.length * (m.warmers ?? 1));
    // The servers' own CPU time over the measured run (all their threads), per request answered: on
    // cores shared with wrk, the figure that does not depend on who wins the CPU.
    const ticksBefore = serverTicks(m.servers);
    const mainBefore = mainTicks(m.servers);
    const { parts, ...result } = await wrk('run', this.measureS);
    const perRequest = (ticks: number) =>
      Number(((ticks * TICK_US) / Math.max(1, result.requests)).toFixed(2));
    const cpuUsPerRequest = perRequest(serverTicks(m.servers) - ticksBefore);
    const run: Run = {
      target: m.target,
      ...result,
      cpuUsPerRequest,
      mainUsPerRequest: perRequest(mainTicks(m.servers) - mainBefore),
    };
    if (m.bare) {
      this.#bare = run;
      // The spread of identical bare runs tells how the machine drifted: only under the same load.
      if (!m.load) this.#bareRuns.push(run);
    } else {
      if (m.script !== 'create.lua' && this.#bare) {
        run.ratioVsBare = ratio(run, this.#bare);
        run.cpuVsBare = Number(
          (cpuUsPerRequest / Math.max(0.01, this.#bare.cpuUsPerRequest ?? 0)).toFixed(2),
        );
      }
      if (m.sqlite) run.ratioVsSqlite = ratio(run, m.sqlite);
      const memory = m.servers.map((server) => memoryOf(server.child.pid as number));
      run.rssMb = Math.max(...memory.map((one) => one.rssMb));
      run.peakRssMb = Math.max(...memory.map((one) => one.peakRssMb));
      if (parts)
        run.perInstance = parts.map((part, i) => ({ ...part, ...(memory[i] as (typeof memory)[0]) }));
    }
    this.runs.push(run);
    console.log(formatRun(run));
    return run;
  }

  /** A note when the bare runs, which do the same work each time, differ widely: the machine drifted. */
  bareSpreadNote(): string | undefined {
    const rates = this.#bareRuns.map((run) => run.requestsPerSecond);
    const [low, high] = [Math.min(...rates), Math.max(...rates)];
    if (rates.length < 2 || high / low < BARE_SPREAD) return undefined;
    return (
      `the bare runs, identical work, range from ${low.toLocaleString('en-US')} to ${high.toLocaleString('en-US')} req/s: ` +
      'the machine drifted during the run (the "other cores" gauge cannot see the host), so a ratio vs bare ' +
      'is only as good as the bare run just before it'
    );
  }
}

const BARE_SPREAD = 1.15;

export async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.log(`${label}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}
