import { Buffer } from 'node:buffer';
import type { Readable } from 'node:stream';

/**
 * Reads at most `maxBytes` of a response body, stopping early once any of `stopAfter` (lower-case ASCII)
 * has been seen, then destroys the stream so the rest is never downloaded and the socket is let go.
 */
export async function readCapped(
  body: Readable,
  maxBytes: number,
  stopAfter: readonly string[] = [],
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Keeps enough of the previous chunk to find a marker split across two chunks.
  const overlap = Math.max(0, ...stopAfter.map((marker) => marker.length - 1));
  let tail = '';
  try {
    // Leaving the loop early must not destroy the stream itself (an AbortError with its stack for
    // every title read); discardBody() below lets it go.
    for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
      const piece = chunk.subarray(0, maxBytes - total);
      chunks.push(piece);
      total += piece.length;
      if (total >= maxBytes) break;
      if (stopAfter.length === 0) continue;
      const text = tail + Buffer.from(piece.buffer, piece.byteOffset, piece.length).toString('latin1');
      const lower = text.toLowerCase();
      if (stopAfter.some((marker) => lower.includes(marker))) break;
      tail = overlap === 0 ? '' : lower.slice(-overlap);
    }
  } finally {
    discardBody(body);
  }
  return Buffer.concat(chunks, total);
}

/**
 * Drops an unread body and its connection. undici reports a destroyed, unfinished body as an 'error'
 * event, which is expected here and must not become an uncaught exception.
 */
export function discardBody(body: Readable): void {
  body.on('error', () => {});
  // The error undici builds for this is dropped unread: without a stack it costs ~1 µs, not ~70.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    body.destroy();
  } finally {
    Error.stackTraceLimit = limit;
  }
}
