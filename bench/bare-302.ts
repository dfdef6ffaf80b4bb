import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The Node limit: a bare node:http server answering the same 302 as Snip's redirect (Location plus the
 * same no-store Cache-Control), with no framework and no lookup. Run as its own process; prints its port.
 */
const NO_STORE = 'private, no-cache, no-store, max-age=0, must-revalidate';

const server = createServer((req, res) => {
  res.writeHead(302, {
    location: `https://example.com/articles${req.url}`,
    'cache-control': NO_STORE,
    'content-length': 0,
  });
  res.end();
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
