import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

/** Runs `snip serve` as a real process (the way `npm start` does) and finds the port it listens on. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** The first line of standard output, from the start on, that matches (waits for it, at most `ms`). */
  lineMatching(pattern: RegExp, ms?: number): Promise<string>;
}

const START_WITHIN_MS = 60_000;

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', 'bin/snip.js', 'serve'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const seen: string[] = [];
  lines.on('line', (line) => seen.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    // A bound against a hang, not a measure of speed: a loaded machine may take long to start three.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${START_WITHIN_MS / 1000} s`));
    }, START_WITHIN_MS);
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
    lines.on('line', (line) => {
      const match = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
  });
  return {
    url,
    child,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      const [code] = await exited;
      return code as number | null;
    },
    lineMatching(pattern, ms = START_WITHIN_MS) {
      const found = seen.find((line) => pattern.test(line));
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          lines.off('line', look);
          reject(new Error(`no line matched ${pattern} within ${ms / 1000} s`));
        }, ms);
        const look = (line: string) => {
          if (!pattern.test(line)) return;
          clearTimeout(timer);
          lines.off('line', look);
          resolve(line);
        };
        lines.on('line', look);
      });
    },
  };
}
