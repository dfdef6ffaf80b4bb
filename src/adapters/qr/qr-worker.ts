import { parentPort } from 'node:worker_threads';
import QRCode from 'qrcode';

/** The QR thread: renders one PNG at a time and hands its bytes over without a copy back. */
parentPort?.on('message', async (message: { id: number; text: string; width: number }) => {
  const { id, text, width } = message;
  try {
    const png = await QRCode.toBuffer(text, { type: 'png', width, margin: 2, errorCorrectionLevel: 'M' });
    // Its own memory, not a slice of a pool other buffers share, so it can be moved.
    const bytes = new Uint8Array(png);
    parentPort?.postMessage({ id, png: bytes }, [bytes.buffer]);
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
