import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, type Started, stopper, track, waitForStatus } from './processes.ts';

/**
 * Debian's nginx answering `return 302` with one process: the practical floor of CPU per redirect on
 * this machine, beside the bare node:http server. `master_process off` keeps the one process that
 * serves as the one whose CPU is read from /proc.
 */

const NGINX = '/usr/sbin/nginx';

/** nginx's version, installing Debian's package first when it is missing (like wrk). */
export function ensureNginx(): string {
  if (spawnSync('sh', ['-c', `test -x ${NGINX}`]).status !== 0) {
    console.log('nginx not found: installing it with apt-get…');
    execFileSync(
      'sh',
      ['-c', 'apt-get update -qq && apt-get install -y -qq nginx-light || apt-get install -y -qq nginx'],
      {
        stdio: 'inherit',
      },
    );
  }
  const banner = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  return /nginx\/(\S+)/.exec(`${banner.stdout}${banner.stderr}`)?.[1] ?? 'unknown';
}

/** The same 302 as bench/bare-302.ts: Location under `location`, the same no-store Cache-Control. */
export async function startNginx(dir: string, location: string): Promise<Started> {
  const root = join(dir, 'nginx');
  mkdirSync(root, { recursive: true });
  const port = await freePort();
  const conf = join(root, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${root}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${root}/body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  server {
    listen 127.0.0.1:${port} backlog=1024;
    location / {
      add_header Cache-Control "private, no-cache, no-store, max-age=0, must-revalidate" always;
      return 302 ${location}$request_uri;
    }
  }
}
`,
  );
  const child = track(spawn(NGINX, ['-p', root, '-c', conf], { stdio: ['ignore', 'ignore', 'inherit'] }));
  const url = `http://127.0.0.1:${port}`;
  await waitForStatus(child, `${url}/x`, 302);
  return { child, url, stop: () => stopper(child) };
}
