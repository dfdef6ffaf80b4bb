import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { threadQrImages } from '../../../src/adapters/qr/qr-thread.ts';
import { UnavailableError } from '../../../src/core/errors.ts';

const jsQR = jsQRModule as unknown as (typeof jsQRModule)['default'];

describe('QR images drawn on their own thread', () => {
  it('draws a PNG of the width asked that reads back as the text', async () => {
    const images = threadQrImages();
    try {
      const png = PNG.sync.read(Buffer.from(await images.png('https://sn.ip/my-slug?qr=1', 320)));
      assert.equal(png.width, 320);
      assert.equal(
        jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data,
        'https://sn.ip/my-slug?qr=1',
      );
    } finally {
      await images.close();
    }
  });

  it('refuses a render at once while as many as it allows already wait', async () => {
    const images = threadQrImages({ maxWaiting: 2 });
    try {
      const renders = Array.from({ length: 6 }, (_, i) =>
        images.png(`https://sn.ip/code${i}?qr=1`, 1024).then(
          () => 'drawn',
          (error: unknown) => (error instanceof UnavailableError ? 'refused' : 'failed'),
        ),
      );
      const outcomes = await Promise.all(renders);
      assert.deepEqual(outcomes, ['drawn', 'drawn', 'refused', 'refused', 'refused', 'refused']);
      // The queue drained: the next render is drawn.
      assert.ok((await images.png('https://sn.ip/again?qr=1', 64)).length > 0);
    } finally {
      await images.close();
    }
  });
});
