import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { otherCores, sampleCpu } from './processes.ts';
import { type Goal, writeResults } from './report.ts';
import { CLI_RUNS } from './settings.ts';

/**
 * The command line's start-up cost: CPU time (user + system, the process's threads and whatever it
 * waits for) of `snip --help`, `snip link --help` and `snip link list <email> --json` on a small
 * SQLite store, beside `node -e 0` with the same Node binary and flags, in the same run. Each command
 * runs CLI_RUNS times, the commands taking turns so that a change of the machine's load falls on all
 * of them alike, after one untimed round that checks what they print.
 *
 * `BENCH_ONLY=cli npm run bench` runs it, and so does the full run. It imports nothing of Snip, so it
 * can also run alone while this checkout's src/ does not load (the bench's other phases import it):
 *
 *   BENCH_SNIP_DIR=<checkout> node_modules/.bin/node --disable-warning=ExperimentalWarning bench/cli-phase.ts
 */

const EMAIL = 'bench@example.com';
const LINKS = 20;
/** A command that has not exited by then is stopped, with its process group, and the phase fails. */
const TIMEOUT_MS = 120_000;
/** Cores used by other processes during the phase above which its figures are flagged (as report.ts). */
const DISTURBED_CORES = 0.2;
const GOALS = { help: 0.25, list: 0.6 } as const;
const RESULTS = fileURLToPath(new URL('./results/cli-latest.json', import.meta.url));

/** The checkout whose CLI is measured: this one, or BENCH_SNIP_DIR's (as processes.ts's startSnip). */
const SNIP_DIR = process.env.BENCH_SNIP_DIR?.trim() || fileURLToPath(new URL('..', import.meta.url));

/**
 * The CPU of one child, read by the shell that waited for it: bash's `times` prints getrusage's
 * RUSAGE_CHILDREN (every thread of the command and the descendants it waited for, to the millisecond,
 * bash's own time on a line apart). GNU time prints it only to 10 ms and is a package to install;
 * /proc/<pid>/stat cannot be read once the process has exited; Node's own cutime/cstime would mix in
 * the bench's other children.
 */
const WRAPPER = '"$@"; status=$?; times >&2; exit $status';

interface Command {
  name: string;
  args: string[];
  /** Throws when the untimed round's output is not what the command should print. */
  check?: (stdout: string) => void;
}

export interface CliFigures {
  command: string;
  argv: string[];
  runs: number;
  medianCpuS: number;
  p90CpuS: number;
  /** The median above the median of `node -e 0` (null for that one). */
  medianAboveNodeS: number | null;
  samplesS: number[];
}

export interface CliResults {
  figures: { snipDir: string; nodeFlags: string[]; links: number; commands: CliFigures[] };
  goals: Goal[];
  lines: string[];
  notes: string[];
}

/** The Node flags of the checkout's bin/snip.js shebang (`#!/usr/bin/env -S node --flag …`). */
function shebangFlags(snipDir: string): string[] {
  const first = readFileSync(join(snipDir, 'bin/snip.js'), 'utf8').split('\n', 1)[0] ?? '';
  const match = /^#!.*\bnode((?:\s+-\S+)*)\s*$/.exec(first);
  if (!match)
    throw new Error(`cannot read Node's flags from the shebang of ${snipDir}/bin/snip.js: ${first}`);
  return (match[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

/** Linear interpolation between the closest ranks (the median of 10 is the mean of the 5th and 6th). */
function quantile(sorted: readonly number[], q: number): number {
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] ?? 0;
  const high = sorted[Math.ceil(at)] ?? low;
  return low + (high - low) * (at - Math.floor(at));
}

let running: ChildProcess | undefined;
/** The command runs in its own process group (the shell and the Node under it): stopped as one. */
const stopGroup = (child: ChildProcess) => {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
};
process.on('exit', () => {
  if (running) stopGroup(running);
});

interface Ran {
  cpuS: number;
  stdout: string;
}

/** Runs argv under bash and returns its CPU time; throws with its stderr when it fails. */
async function cpuOf(argv: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  const child = spawn('bash', ['-c', WRAPPER, 'bash', ...argv], {
    cwd: SNIP_DIR,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running = child;
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stopGroup(child);
  }, TIMEOUT_MS);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
  }).finally(() => {
    clearTimeout(timer);
    running = undefined;
  });
  const stderr = Buffer.concat(err).toString('utf8');
  const lines = stderr.trimEnd().split('\n');
  // `times` prints the shell's line, then its children's: "0m2.735s 0m0.631s".
  const times = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(lines.at(-1) ?? '');
  const command = argv.map((arg) => (arg.includes(' ') ? `'${arg}'` : arg)).join(' ');
  if (code !== 0 || !times) {
    const why = timedOut ? `ran over ${TIMEOUT_MS / 1000} s` : `exited with ${code ?? signal}`;
    const output = (times ? lines.slice(0, -2) : lines).slice(-30).join('\n');
    throw new Error(`${command} ${why} in ${SNIP_DIR}:\n${output}`);
  }
  const [, userMin, userS, systemMin, systemS] = times.map(Number) as number[];
  return {
    // `times` prints milliseconds: rounded back to them, without the sum's binary fractions.
    cpuS:
      Math.round(((userMin ?? 0) * 60 + (userS ?? 0) + (systemMin ?? 0) * 60 + (systemS ?? 0)) * 1000) / 1000,
    stdout: Buffer.concat(out).toString('utf8'),
  };
}

/** A fresh SQLite store of LINKS links for EMAIL, made with the checkout's own CLI. */
async function prepareStore(dir: string, node: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const csv = join(dir, 'links.csv');
  const rows = Array.from({ length: LINKS }, (_, i) => `https://www.site-${i}.example/page/${i},cli-${i}`);
  writeFileSync(csv, `url,slug\n${rows.join('\n')}\n`);
  await cpuOf([...node, 'migrate'], env);
  await cpuOf([...node, 'account', 'create', EMAIL, '--plan', 'pro', '--json'], env);
  // --no-inspect: the targets are not fetched (they do not exist), as an import from a file allows.
  const imported = await cpuOf([...node, 'link', 'import', EMAIL, csv, '--no-inspect', '--json'], env);
  const { imported: count } = JSON.parse(imported.stdout) as { imported?: number };
  if (count !== LINKS) throw new Error(`link import made ${count} links, not ${LINKS}: ${imported.stdout}`);
}

const seconds = (s: number) => `${s.toFixed(3)} s`;

export async function cliPhase(baseDir: string): Promise<CliResults> {
  const dir = mkdtempSync(join(baseDir, 'cli-'));
  const flags = shebangFlags(SNIP_DIR);
  const node = [process.execPath, ...flags];
  const snip = [...node, 'bin/snip.js'];
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'snip.db')}` };
  await prepareStore(dir, snip, env);

  const help = (stdout: string) => {
    if (!/usage/i.test(stdout)) throw new Error(`no usage in the help printed: ${stdout.slice(0, 200)}`);
  };
  const commands: Command[] = [
    { name: 'node -e 0', args: [...node, '-e', '0'] },
    { name: 'snip --help', args: [...snip, '--help'], check: help },
    { name: 'snip link --help', args: [...snip, 'link', '--help'], check: help },
    {
      name: 'snip link list <email> --json',
      args: [...snip, 'link', 'list', EMAIL, '--json'],
      check: (stdout) => {
        const items = (JSON.parse(stdout) as { items?: unknown[] }).items;
        if (items?.length !== LINKS) throw new Error(`link list gave ${items?.length} links, not ${LINKS}`);
      },
    },
  ];
  for (const command of commands) command.check?.((await cpuOf(command.args, env)).stdout);

  const samples = commands.map((): number[] => []);
  const before = sampleCpu([process.pid]);
  for (let round = 0; round < CLI_RUNS; round++)
    for (const [i, command] of commands.entries()) samples[i]?.push((await cpuOf(command.args, env)).cpuS);
  const after = sampleCpu([process.pid]);

  const sorted = samples.map((list) => [...list].sort((a, b) => a - b));
  const baseline = quantile(sorted[0] ?? [], 0.5);
  const round = (s: number) => Math.round(s * 10_000) / 10_000; // the samples' ms, interpolated
  const figures = commands.map(
    (command, i): CliFigures => ({
      command: command.name,
      argv: command.args.map((arg) => (arg === process.execPath ? 'node' : arg)),
      runs: CLI_RUNS,
      medianCpuS: round(quantile(sorted[i] ?? [], 0.5)),
      p90CpuS: round(quantile(sorted[i] ?? [], 0.9)),
      medianAboveNodeS: i === 0 ? null : round(quantile(sorted[i] ?? [], 0.5) - baseline),
      samplesS: samples[i] ?? [],
    }),
  );

  const goalOf = (name: string, limit: number): Goal => {
    const figure = figures.find((f) => f.command === name);
    const above = figure?.medianAboveNodeS ?? Number.POSITIVE_INFINITY;
    const vs = `${seconds(figure?.medianCpuS ?? Number.NaN)} vs ${seconds(figures[0]?.medianCpuS ?? Number.NaN)}`;
    return {
      goal: `\`${name}\` ≤ ${limit} s CPU above \`node -e 0\` (median of ${CLI_RUNS})`,
      actual: `${seconds(above)} above (${vs})`,
      met: above <= limit,
    };
  };
  const goals = [goalOf('snip --help', GOALS.help), goalOf('snip link list <email> --json', GOALS.list)];

  // Cores kept busy by others: the commands' CPU (in ticks of 1/100 s) counted as the bench's own.
  const children = samples.flat().reduce((sum, s) => sum + s, 0) * 100;
  const cores = otherCores(before, { ...after, ours: after.ours + children });
  const notes = [
    `CPU time of each command from bash's \`times\` (user + system, every thread), ${CLI_RUNS} runs each, taking turns; Node flags from ${join(SNIP_DIR, 'bin/snip.js')}: ${flags.join(' ')}`,
    `other processes kept ${cores.toFixed(2)} cores busy during the runs${cores >= DISTURBED_CORES ? ': CPU times grow on a busy machine (shared caches and cores), compare revisions in one session' : ''}`,
  ];
  const header = `${'command'.padEnd(34)}${'median'.padStart(10)}${'p90'.padStart(10)}${'above node -e 0'.padStart(18)}`;
  const lines = [
    header,
    ...figures.map(
      (f) =>
        `${f.command.padEnd(34)}${seconds(f.medianCpuS).padStart(10)}${seconds(f.p90CpuS).padStart(10)}` +
        `${(f.medianAboveNodeS === null ? '—' : seconds(f.medianAboveNodeS)).padStart(18)}`,
    ),
  ];
  return {
    figures: { snipDir: SNIP_DIR, nodeFlags: flags, links: LINKS, commands: figures },
    goals,
    lines,
    notes,
  };
}

export function printCli(cli: CliResults): void {
  console.log(`\ncommand line, CPU per command (bench/cli-phase.ts):\n${cli.lines.join('\n')}`);
  for (const goal of cli.goals)
    console.log(`${goal.met ? 'met   ' : 'MISSED'}  ${goal.goal}: ${goal.actual}`);
  for (const note of cli.notes) console.log(`note: ${note}`);
}

/** bench/results/cli-latest.json, whether the phase ran alone or in the full run. */
export function writeCli(cli: CliResults): void {
  writeResults(RESULTS, {
    date: new Date().toISOString(),
    machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', node: process.version },
    cli: cli.figures,
    goals: cli.goals,
    notes: cli.notes,
  });
}

if (import.meta.main) {
  const dir = mkdtempSync(join(tmpdir(), 'snip-bench-cli-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  cliPhase(dir).then(
    (cli) => {
      printCli(cli);
      writeCli(cli);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
