import type { Worker } from 'node:worker_threads';

/**
 * Calls to a worker thread answered in order of their ids: each call a promise, the thread kept
 * alive only while one is under way. A thread that fails or stops rejects every call left.
 */
export interface WorkerReply {
  id: number;
  error?: string;
}

export function workerCalls<R extends WorkerReply>(worker: Worker, stopped: string) {
  const pending = new Map<number, { resolve: (reply: R) => void; reject: (error: Error) => void }>();
  let next = 0;
  let exited = false;
  worker.unref();
  const settleAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('message', (reply: R) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if (reply.error === undefined) waiting?.resolve(reply);
    else waiting?.reject(new Error(reply.error));
  });
  worker.on('error', (error) => settleAll(error));
  worker.on('exit', () => {
    exited = true;
    settleAll(new Error(stopped));
  });

  return {
    /** Calls under way. */
    get waiting(): number {
      return pending.size;
    },
    get exited(): boolean {
      return exited;
    },
    call(message: object, moved: ArrayBuffer[] = []): Promise<R> {
      if (exited) return Promise.reject(new Error(stopped));
      return new Promise<R>((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject });
        worker.ref();
        worker.postMessage({ ...message, id }, moved);
      });
    },
  };
}
