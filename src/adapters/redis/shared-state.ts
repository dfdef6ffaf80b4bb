import type { ReadinessCheck } from '../../core/ports/readiness.ts';
import type { DemoLog, LinkEvents, WindowCounter } from '../../core/ports/shared-state.ts';
import type { VisitLimits } from '../../core/ports/visit-limits.ts';
import type { Visitors } from '../../core/ports/visitors.ts';
import { connectRedis } from './connect.ts';
import { RedisDemoLog } from './demo-log.ts';
import { RedisLinkEvents } from './link-events.ts';
import { RedisVisitLimits } from './visit-limits.ts';
import { RedisVisitors } from './visitors.ts';
import { RedisWindowCounter } from './window-counter.ts';

export interface SharedState {
  ports: {
    counter: WindowCounter;
    demoLog: DemoLog;
    linkEvents: LinkEvents;
    visitLimits: VisitLimits;
    visitors: Visitors;
    readinessChecks: ReadinessCheck[];
  };
  /** Closes the connections, after the app has closed the demo log and link events it used. */
  close(): Promise<void>;
}

/** With REDIS_URL: rate limits, the demo log, cache invalidation, visit limits and unique visitors shared by every instance. */
export async function openRedisState(url: string, prefix: string, timeoutMs: number): Promise<SharedState> {
  const redis = await connectRedis(url, prefix, timeoutMs);
  const { client, subscriber } = redis;
  return {
    ports: {
      counter: new RedisWindowCounter(client, prefix),
      demoLog: await RedisDemoLog.open(client, subscriber, prefix),
      linkEvents: await RedisLinkEvents.open(client, subscriber, prefix),
      visitLimits: new RedisVisitLimits(client, prefix),
      visitors: new RedisVisitors(client, prefix),
      readinessChecks: [{ name: 'redis', check: async () => void (await client.ping()) }],
    },
    close: () => redis.close(),
  };
}
