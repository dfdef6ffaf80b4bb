import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, it } from 'node:test';
import { LocalLiveClicks } from '../../../src/adapters/memory/live-clicks.ts';
import type { LiveClick } from '../../../src/core/ports/live-clicks.ts';
import { LiveStreams } from '../../../src/features/analytics/live/live-streams.ts';

/** A response whose client reads nothing while `stuck`: what it was sent, and what waits. */
class SlowResponse extends EventEmitter {
  sent = '';
  stuck = false;
  get writableLength(): number {
    return this.stuck ? 1_000_000 : 0;
  }
  writeHead(): this {
    return this;
  }
  write(text: string): boolean {
    this.sent += text;
    return !this.stuck;
  }
  end(): void {
    this.emit('close');
  }
}

const CLICK: LiveClick = {
  at: '2026-11-24T15:30:00.000Z',
  code: 'abc',
  domain: 'sn.ip',
  referrer: 'direct',
  country: 'ZZ',
  device: 'desktop',
  os: 'Linux',
  browser: 'Chrome',
  language: 'en',
  source: 'link',
};

describe('live streams', () => {
  it('drops the clicks of a client that does not read, then says how many once it reads again', () => {
    const clicks = new LocalLiveClicks();
    const streams = new LiveStreams({ clicks, heartbeatMs: 60_000, maxMs: 60_000 });
    const out = new SlowResponse();
    streams.open(out as unknown as ServerResponse, 7);
    out.stuck = true;
    const before = out.sent.length;
    clicks.publish(7, [CLICK, CLICK, CLICK]);
    assert.equal(out.sent.length, before, 'nothing more is buffered for a client that does not read');
    out.stuck = false;
    clicks.publish(7, [CLICK]);
    assert.match(out.sent, /event: dropped\ndata: \{"clicks":3\}\n\n/);
    assert.equal(out.sent.match(/event: click/g)?.length, 1);
    streams.endAll();
    assert.equal(clicks.heard(7), false, 'an ended stream listens no more');
    assert.equal(streams.openOf(7), 0);
  });
});
