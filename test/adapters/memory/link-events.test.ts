import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalLinkEvents } from '../../../src/adapters/memory/link-events.ts';

describe('link changes within one process', () => {
  it('tells every handler added, in order, not only the last one', async () => {
    const events = new LocalLinkEvents();
    const heard: string[] = [];
    events.onChanged((code) => heard.push(`cache ${code}`));
    events.onChanged((code) => heard.push(`domains ${code}`));
    await events.changed('Abc1234');
    assert.deepEqual(heard, ['cache Abc1234', 'domains Abc1234']);
  });
});
