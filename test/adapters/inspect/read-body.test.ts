import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { readCapped } from '../../../src/adapters/inspect/read-body.ts';

/** A stream that yields `first` and then filler forever. */
function endless(first: readonly string[] = []) {
  const queue = [...first];
  const stream = new Readable({
    read() {
      this.push(Buffer.from(queue.shift() ?? 'filler '.repeat(1024)));
    },
  });
  return { stream };
}

describe('readCapped', () => {
  it('stops an endless body exactly at the cap and destroys the stream', async () => {
    const { stream } = endless();
    const body = await readCapped(stream, 100_000);
    assert.equal(body.length, 100_000);
    assert.equal(stream.destroyed, true);
  });

  it('stops at a marker split across two chunks, without reading further', async () => {
    const { stream } = endless(['<html><head><title>Hi</ti', 'tle><meta x>']);
    const body = await readCapped(stream, 1_000_000, ['</title']);
    assert.equal(Buffer.from(body).toString('latin1'), '<html><head><title>Hi</title><meta x>');
    assert.equal(stream.destroyed, true);
  });

  it('matches markers case-insensitively', async () => {
    const { stream } = endless(['<HEAD></HEAD>']);
    const body = await readCapped(stream, 1_000_000, ['</head']);
    assert.equal(body.length, '<HEAD></HEAD>'.length);
  });

  it('returns a short body whole', async () => {
    const body = await readCapped(Readable.from([Buffer.from('abc'), Buffer.from('def')]), 1024, ['</title']);
    assert.equal(Buffer.from(body).toString(), 'abcdef');
  });

  it('never hands back more than the cap even when one chunk overshoots it', async () => {
    const body = await readCapped(Readable.from([Buffer.alloc(5000, 'a')]), 1234);
    assert.equal(body.length, 1234);
  });
});
