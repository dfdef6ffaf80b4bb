import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy on 127.0.0.1 in front of PostgreSQL or Redis that can stand in for a broken network:
 * - `pass`: bytes flow both ways;
 * - `blackhole`: nothing flows, nothing is refused — connections, old and new, just hang (what a
 *   network partition looks like); what was sent meanwhile flows once the mode is `pass` again, as TCP
 *   retransmission would deliver it;
 * - `reset`: every connection is cut with a reset and new ones are reset at once (the server died).
 */
export type ProxyMode = 'pass' | 'blackhole' | 'reset';

export interface FaultProxy {
  port: number;
  /** `url` with its host and port pointed at the proxy. */
  through(url: string): string;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream?: Socket;
  /** Bytes held while the network is a black hole, per direction, in order. */
  toUpstream: Buffer[];
  toClient: Buffer[];
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  let mode: ProxyMode = 'pass';
  const pairs = new Set<Pair>();

  const flush = (pair: Pair) => {
    if (!pair.upstream) {
      pair.upstream = openUpstream(pair);
      return;
    }
    for (const chunk of pair.toUpstream.splice(0)) pair.upstream.write(chunk);
    for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
  };

  const drop = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  function openUpstream(pair: Pair): Socket {
    const upstream = connect(target.port, target.host);
    upstream.on('data', (chunk) => {
      if (mode === 'pass') pair.client.write(chunk);
      else pair.toClient.push(chunk);
    });
    upstream.on('error', () => drop(pair));
    upstream.on('close', () => drop(pair));
    for (const chunk of pair.toUpstream.splice(0)) upstream.write(chunk);
    return upstream;
  }

  const server = createServer((client) => {
    if (mode === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = { client, toUpstream: [], toClient: [] };
    pairs.add(pair);
    client.on('data', (chunk) => {
      if (mode === 'pass' && pair.upstream) pair.upstream.write(chunk);
      else pair.toUpstream.push(chunk);
    });
    client.on('error', () => drop(pair));
    client.on('close', () => drop(pair));
    // In a black hole a new connection reaches nothing until the network is back.
    if (mode === 'pass') pair.upstream = openUpstream(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    port,
    through(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.href;
    },
    setMode(next) {
      mode = next;
      if (next === 'reset') {
        for (const pair of [...pairs]) {
          pairs.delete(pair);
          pair.client.resetAndDestroy();
          pair.upstream?.destroy();
        }
      }
      if (next === 'pass') for (const pair of pairs) flush(pair);
    },
    async close() {
      for (const pair of [...pairs]) drop(pair);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
