import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { QR_DEFAULT_LOOK, type QrFormat, type QrLook } from '../../core/qr-design.ts';
import { drawPng, drawSvg, qrModules } from './qr-draw.ts';

export interface QrRequest {
  id: number;
  text: string;
  format: QrFormat;
  width: number;
  look?: QrLook;
}

/**
 * Below the redirect's thread when both want the CPU (on Linux a thread's nice value is its own):
 * a burst of new designs then waits for the cores, not the redirects. Where the system refuses, the
 * thread keeps the process's priority.
 */
try {
  setPriority(10);
} catch {}

/** The QR thread: draws one image at a time and hands a PNG's bytes over without a copy back. */
parentPort?.on('message', (message: QrRequest) => {
  const { id, text, format, width } = message;
  const look = message.look ?? QR_DEFAULT_LOOK;
  try {
    const modules = qrModules(text, look);
    if (format === 'svg') {
      parentPort?.postMessage({ id, svg: drawSvg(modules, width, look) });
      return;
    }
    // Its own memory, not a slice of a pool other buffers share, so it can be moved.
    const bytes = new Uint8Array(drawPng(modules, width, look));
    parentPort?.postMessage({ id, png: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
