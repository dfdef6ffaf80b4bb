import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Link } from '../../src/core/entities.ts';
import { EventBus } from '../../src/kernel/event-bus.ts';

const link = { id: 1, code: 'abc', domainId: 0 } as Link;

describe('the event bus', () => {
  it('tells every listener of an event, in the order they were added, and none of another', () => {
    const heard: string[] = [];
    const bus = new EventBus(() => {});
    bus.on('link.created', (created) => void heard.push(`first ${created.code}`));
    bus.on('link.created', (created) => void heard.push(`second ${created.code}`));
    bus.on('takedowns.changed', () => void heard.push('takedowns'));
    bus.emit('link.created', link);
    assert.deepEqual(heard, ['first abc', 'second abc']);
    assert.equal(bus.heard('link.created'), true);
    assert.equal(bus.heard('clicks.flushing'), false);
  });

  it('reports a listener that throws or rejects, and still tells the others', async () => {
    const failures: string[] = [];
    const bus = new EventBus((event, error) => failures.push(`${event}: ${(error as Error).message}`));
    let told = 0;
    bus.on('takedowns.changed', () => {
      throw new Error('sync');
    });
    bus.on('takedowns.changed', async () => {
      throw new Error('async');
    });
    bus.on('takedowns.changed', () => {
      told++;
    });
    bus.emit('takedowns.changed', undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(told, 1);
    assert.deepEqual(failures, ['takedowns.changed: sync', 'takedowns.changed: async']);
  });

  it('gathers the answers of an ask in order, and forgets a removed listener', async () => {
    const bus = new EventBus(() => {});
    const remove = bus.on('clicks.flushing', async () => undefined);
    bus.on('clicks.flushing', async () => ({ events: [], dropped: 0 }) as never);
    assert.equal((await bus.ask('clicks.flushing', {} as never)).length, 2);
    remove();
    assert.deepEqual(await bus.ask('clicks.flushing', {} as never), [{ events: [], dropped: 0 }]);
  });

  it('fails an ask when a listener fails: what it answers goes into the asker’s own work', async () => {
    const bus = new EventBus(() => {});
    bus.on('clicks.flushing', async () => {
      throw new Error('cannot');
    });
    await assert.rejects(bus.ask('clicks.flushing', {} as never), /cannot/);
  });
});
