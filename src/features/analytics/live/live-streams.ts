import type { ServerResponse } from 'node:http';
import type { LiveClick, LiveClicks } from '../../../core/ports/live-clicks.ts';

/** Streams of one workspace open at once on one instance (docs/api.md §19). */
export const LIVE_STREAMS_PER_WORKSPACE = 5;
/**
 * Bytes a stream may have waiting for a slow client; past them its clicks are dropped, counted,
 * and said in a `dropped` event once it reads again, so a client that does not read costs a fixed
 * amount of memory, not one growing with the clicks.
 */
const MAX_WAITING_BYTES = 64 * 1024;

export interface LiveStreamOptions {
  clicks: LiveClicks;
  heartbeatMs: number;
  /** SSE_MAX_SECONDS: a stream is ended after this long; EventSource comes back by itself. */
  maxMs: number;
}

/**
 * The live streams of this instance: each a Server-Sent Events answer of one workspace's clicks,
 * at most LIVE_STREAMS_PER_WORKSPACE per workspace, with heartbeat comments so proxies keep it
 * open, ended after SSE_MAX_SECONDS and when the server closes.
 */
export class LiveStreams {
  readonly #options: LiveStreamOptions;
  readonly #open = new Map<number, number>();
  readonly #ends = new Set<() => void>();

  constructor(options: LiveStreamOptions) {
    this.#options = options;
  }

  /** Streams open here for the workspace. */
  openOf(workspaceId: number): number {
    return this.#open.get(workspaceId) ?? 0;
  }

  /** Whether the workspace may open one more stream here. */
  admits(workspaceId: number): boolean {
    return this.openOf(workspaceId) < LIVE_STREAMS_PER_WORKSPACE;
  }

  /** Answers the request with the workspace's stream (the caller has checked admits()). */
  open(out: ServerResponse, workspaceId: number): void {
    const { clicks, heartbeatMs, maxMs } = this.#options;
    this.#open.set(workspaceId, this.openOf(workspaceId) + 1);
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    out.write('retry: 3000\n\n');
    let dropped = 0;
    const stop = clicks.listen(workspaceId, (batch: readonly LiveClick[]) => {
      if (out.writableLength > MAX_WAITING_BYTES) {
        dropped += batch.length;
        return;
      }
      let text = dropped > 0 ? `event: dropped\ndata: ${JSON.stringify({ clicks: dropped })}\n\n` : '';
      dropped = 0;
      for (const click of batch) text += `event: click\ndata: ${JSON.stringify(click)}\n\n`;
      out.write(text);
    });
    const heartbeat = setInterval(() => out.write(': heartbeat\n\n'), heartbeatMs);
    const lifetime = setTimeout(() => end(), maxMs);
    let counted = true;
    const cleanup = () => {
      if (!counted) return;
      counted = false;
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      stop();
      this.#ends.delete(end);
      const left = this.openOf(workspaceId) - 1;
      if (left > 0) this.#open.set(workspaceId, left);
      else this.#open.delete(workspaceId);
    };
    const end = () => {
      cleanup();
      out.end();
    };
    this.#ends.add(end);
    out.once('close', cleanup);
    out.once('error', cleanup);
  }

  /** Ends every stream: the server is closing and would otherwise wait on them. */
  endAll(): void {
    for (const end of [...this.#ends]) end();
  }
}
