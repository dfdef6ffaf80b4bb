import { Worker } from 'node:worker_threads';
import { UnavailableError } from '../../core/errors.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import type { WorkerReply } from '../worker-calls.ts';
import { workerCalls } from '../worker-calls.ts';
import type { QrRequest } from './qr-worker.ts';

type QrReply = WorkerReply & { png?: Uint8Array; svg?: string };

/**
 * QR images rendered on a thread of their own (encoding a text and choosing its mask is the CPU's
 * work, a millisecond or more): the redirect's thread never waits on one. Renders queue on that one thread; past `maxWaiting` of
 * them a render is refused at once (503, Retry-After), so a flood of uncached designs neither grows
 * memory nor delays the renders behind it without bound. The thread starts with the first render.
 */
export function threadQrImages(options: { maxWaiting?: number } = {}): QrImages {
  const maxWaiting = options.maxWaiting ?? 32;
  let calls: ReturnType<typeof workerCalls<QrReply>> | undefined;
  let worker: Worker | undefined;

  async function draw(request: Omit<QrRequest, 'id'>): Promise<QrReply> {
    if (!calls || calls.exited) {
      worker = new Worker(new URL('./qr-worker.ts', import.meta.url));
      calls = workerCalls(worker, 'the QR thread stopped');
    }
    if (calls.waiting >= maxWaiting) throw new UnavailableError('too many QR codes are being drawn', 1);
    return calls.call(request);
  }

  return {
    async png(text, width, look) {
      const { png } = await draw({ text, format: 'png', width, look });
      if (!png) throw new Error('the QR thread answered without a PNG');
      return png;
    },
    async svg(text, width, look) {
      const { svg } = await draw({ text, format: 'svg', width, look });
      if (svg === undefined) throw new Error('the QR thread answered without an SVG');
      return svg;
    },
    async close() {
      await worker?.terminate();
    },
  };
}
