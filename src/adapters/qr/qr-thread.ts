import { Worker } from 'node:worker_threads';
import { UnavailableError } from '../../core/errors.ts';
import type { QrImages } from '../../core/ports/qr-images.ts';
import { type WorkerReply, workerCalls } from '../worker-calls.ts';

/**
 * QR images rendered on a thread of their own (a 1024 px image takes 70-240 ms of a CPU): the
 * redirect's thread never waits on one. Renders queue on that one thread; past `maxWaiting` of them
 * a render is refused at once (503, Retry-After), so a flood of uncached sizes neither grows memory
 * nor delays the renders behind it without bound. The thread starts with the first render.
 */
export function threadQrImages(options: { maxWaiting?: number } = {}): QrImages {
  const maxWaiting = options.maxWaiting ?? 32;
  let calls: ReturnType<typeof workerCalls<WorkerReply & { png: Uint8Array }>> | undefined;
  let worker: Worker | undefined;
  return {
    async png(text, width) {
      if (!calls || calls.exited) {
        worker = new Worker(new URL('./qr-worker.ts', import.meta.url));
        calls = workerCalls(worker, 'the QR thread stopped');
      }
      if (calls.waiting >= maxWaiting) throw new UnavailableError('too many QR codes are being drawn', 1);
      return (await calls.call({ text, width })).png;
    },
    async close() {
      await worker?.terminate();
    },
  };
}
