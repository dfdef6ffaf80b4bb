import type { LiveClicks } from '../../core/ports/live-clicks.ts';
import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import type { Visitors } from '../../core/ports/visitors.ts';
import { RedisCircuit } from './circuit.ts';
import { connectRedis } from './connect.ts';
import { RedisDemoLog } from './demo-log.ts';
import { FaultTolerantCounter } from './fault-tolerant-counter.ts';
import { RedisLinkEvents } from './link-events.ts';
import { RedisLiveClicks } from './live-clicks.ts';
import { RedisVisitors } from './visitors.ts';
import { RedisWindowCounter } from './window-counter.ts';

export interface SharedState {
  ports: {
    counter: WindowCounter;
    demoLog: DemoLog;
    linkEvents: LinkEvents;
    liveClicks: LiveClicks;
    visitors: Visitors;
    readinessChecks: ReadinessCheck[];
  };
  /** Closes the connections, after the app has closed the demo log and link events it used. */
  close(): Promise<void>;
}

/**
 * With REDIS_URL: rate limits, the demo log, cache invalidation and unique visitors shared by every
 * instance. Redis is shared state, not a gate (docs/api.md §10): while it does not answer, windows
 * are counted per instance and a change is announced to nobody (the others' caches drop it within
 * LINK_CACHE_TTL_SECONDS, and all at once when their subscription is back); visit limits are the
 * store's alone, exact whatever Redis does.
 */
export async function openRedisState(url: string, prefix: string, timeoutMs: number): Promise<SharedState> {
  const redis = await connectRedis(url, prefix, timeoutMs);
  const { client, subscriber } = redis;
  const circuit = new RedisCircuit();
  return {
    ports: {
      counter: new FaultTolerantCounter(new RedisWindowCounter(client, prefix), circuit),
      demoLog: await RedisDemoLog.open(client, subscriber, prefix),
      linkEvents: await RedisLinkEvents.open(client, subscriber, prefix, circuit),
      liveClicks: await RedisLiveClicks.open(client, subscriber, prefix, circuit),
      visitors: new RedisVisitors(client, prefix),
      readinessChecks: [{ name: 'redis', check: async () => void (await client.ping()) }],
    },
    close: () => redis.close(),
  };
}
