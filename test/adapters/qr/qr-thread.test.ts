import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { qrModules } from '../../../src/adapters/qr/qr-draw.ts';
import { threadQrImages } from '../../../src/adapters/qr/qr-thread.ts';
import { UnavailableError } from '../../../src/core/errors.ts';
import { QR_DEFAULT_LOOK } from '../../../src/core/qr-design.ts';

const jsQR = jsQRModule as unknown as (typeof jsQRModule)['default'];

describe('QR images drawn on their own thread', () => {
  it('draws a PNG of about the width asked, whole pixels a module, that reads back as the text', async () => {
    const images = threadQrImages();
    try {
      const png = PNG.sync.read(Buffer.from(await images.png('https://sn.ip/my-slug?qr=1', 320)));
      // Default look: margin 4, level M; the multiple of the code and its margins nearest 320.
      const total = qrModules('https://sn.ip/my-slug?qr=1', QR_DEFAULT_LOOK).size + 8;
      assert.equal(png.width, total * Math.round(320 / total));
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
