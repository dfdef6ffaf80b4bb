import { Redis } from 'ioredis';

/**
 * Redis connections for shared state. Commands fail fast while Redis is unreachable (no offline
 * queue, one retry) so callers can answer at once; the client keeps reconnecting in the background.
 */
export interface RedisConnections {
  client: Redis;
  /** A second connection: a subscribed connection cannot send other commands. */
  subscriber: Redis;
  /** Prefix of every key and channel, so several deployments (or test runs) can share one Redis. */
  prefix: string;
  close(): Promise<void>;
}

export async function connectRedis(
  url: string,
  prefix = 'snip:',
  timeoutMs = 1000,
): Promise<RedisConnections> {
  const options = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: Math.max(timeoutMs, 1000),
    commandTimeout: timeoutMs,
    retryStrategy: (attempt: number) => Math.min(attempt * 200, 2000),
  };
  const client = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
  // Errors surface on the commands that fail; the connection's own events would only repeat them.
  client.on('error', () => {});
  subscriber.on('error', () => {});
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (error) {
    // Neither may go on reconnecting in the background: that would keep the process alive.
    client.disconnect();
    subscriber.disconnect();
    throw error;
  }
  return {
    client,
    subscriber,
    prefix,
    async close() {
      await Promise.allSettled([client.quit(), subscriber.quit()]);
      client.disconnect();
      subscriber.disconnect();
    },
  };
}
