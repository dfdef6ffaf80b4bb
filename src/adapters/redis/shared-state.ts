import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import { connectRedis } from './connect.ts';
import { RedisDemoLog } from './demo-log.ts';
import { RedisLinkEvents } from './link-events.ts';
import { RedisWindowCounter } from './window-counter.ts';

export interface SharedState {
  ports: {
    counter: WindowCounter;
    demoLog: DemoLog;
    linkEvents: LinkEvents;
    readinessChecks: ReadinessCheck[];
  };
  /** Closes the connections, after the app has closed the demo log and link events it used. */
  close(): Promise<void>;
}

/** With REDIS_URL: rate limits, the demo log and cache invalidation shared by every instance. */
export async function openRedisState(url: string, prefix: string, timeoutMs: number): Promise<SharedState> {
  const redis = await connectRedis(url, prefix, timeoutMs);
  const { client, subscriber } = redis;
  return {
    ports: {
      counter: new RedisWindowCounter(client, prefix),
      demoLog: await RedisDemoLog.open(client, subscriber, prefix),
      linkEvents: await RedisLinkEvents.open(client, subscriber, prefix),
      readinessChecks: [{ name: 'redis', check: async () => void (await client.ping()) }],
    },
    close: () => redis.close(),
  };
}
