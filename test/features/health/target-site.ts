import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInspectorWithAddressCheck } from '../../../src/adapters/inspect/inspector.ts';
import type { Resolver } from '../../../src/adapters/inspect/types.ts';

/**
 * A target that breaks and recovers (docs/api.md §21): a loopback page any `*.test` host reaches,
 * answering 404 while `broken`; and the real inspector, its resolver sending those hosts to
 * loopback (as the inspector's own tests stand a loopback in for a public host).
 */
export async function startTargetSite() {
  const state = { broken: false, hosts: [] as string[] };
  const server = createServer((req, res) => {
    state.hosts.push(String(req.headers.host));
    if (state.broken) res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Gone</title>');
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<title>A page</title>');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const resolve: Resolver = async (host) => {
    if (!host.endsWith('.test')) throw Object.assign(new Error('no such name'), { code: 'ENOTFOUND' });
    return [{ address: '127.0.0.1', family: 4 }];
  };
  const inspector = createInspectorWithAddressCheck(
    { allowPrivate: false, resolve, timeoutMs: 3000 },
    () => undefined,
  );
  return {
    state,
    inspector,
    url: (host: string) => `http://${host}.test:${port}/page`,
    async close() {
      await inspector.close();
      server.closeAllConnections();
      server.close();
    },
  };
}
