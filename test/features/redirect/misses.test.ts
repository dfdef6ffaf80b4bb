import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestAppOptions } from '../../helper.ts';

/** A miss is an answer, not a fault: anyone may ask for codes that do not exist, as often as they like. */
describe('unknown codes', () => {
  const lines: string[] = [];
  let t: TestApp;
  before(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    t = await startTestApp({ logger: { level: 'info', stream } as TestAppOptions['logger'] });
  });
  after(() => t.close());

  it('answer 404 and write no warning or error to the log', async () => {
    for (const url of ['/Zzzzzzz', '/nosuchcode', '/x', '/qrcode/Zzzzzzz.png', '/no-such-slug']) {
      assert.equal((await t.app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
    const loud = lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40);
    assert.deepEqual(loud, []);
  });
});
