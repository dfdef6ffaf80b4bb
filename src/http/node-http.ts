import { createRequire } from 'node:module';

/**
 * node:http as CommonJS: imported as an ES module, Node reads every export of it, and the
 * `WebSocket` getter among them loads Node's bundled fetch — ~80 ms of a server's start CPU for
 * something Snip never uses (docs/adr/053). Import what is needed of node:http from here.
 */
const http = createRequire(import.meta.url)('node:http') as typeof import('node:http');

export const { createServer, STATUS_CODES } = http;
