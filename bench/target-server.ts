import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The pages POST /create inspects during the benchmark: any path answers a small HTML page with a title,
 * over keep-alive. Run as its own process so it does not share the driver's event loop; prints its port.
 */
const PAGE = Buffer.from(
  '<!doctype html><html><head><title>Bench Target</title></head><body><p>Bench target page.</p></body></html>',
);

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': PAGE.length });
  res.end(PAGE);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
