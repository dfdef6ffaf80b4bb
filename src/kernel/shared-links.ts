import type { SharedState } from '../adapters/redis/shared-state.ts';
import { UnavailableError } from '../core/errors.ts';
import type { LinkEvents } from '../core/ports/shared-state.ts';

/**
 * A command's announcements to the running servers (Redis when REDIS_URL is set): Redis is
 * connected only when the first change is announced, so a command that changes nothing never
 * loads its client. Handlers added before then are attached once connected.
 */
export function announcerOnDemand(config: { redisUrl: string; redisPrefix: string; storeTimeoutMs: number }) {
  let opened: Promise<SharedState> | undefined;
  const changedHandlers: Array<(code: string) => void> = [];
  const missedHandlers: Array<() => void> = [];
  const open = () => {
    opened ??= (async () => {
      const { openRedisState } = await import('../adapters/redis/shared-state.ts');
      try {
        const shared = await openRedisState(config.redisUrl, config.redisPrefix, config.storeTimeoutMs);
        for (const handler of changedHandlers) shared.ports.linkEvents.onChanged(handler);
        for (const handler of missedHandlers) shared.ports.linkEvents.onMissed(handler);
        return shared;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new UnavailableError(
          `REDIS_URL is set but Redis cannot be reached (${reason}); nothing was changed`,
        );
      }
    })();
    return opened;
  };
  const events: LinkEvents = {
    changed: async (code) => (await open()).ports.linkEvents.changed(code),
    onChanged: (handler) => void changedHandlers.push(handler),
    onMissed: (handler) => void missedHandlers.push(handler),
    async close() {
      if (!opened) return;
      const shared = await opened.catch(() => undefined);
      if (!shared) return;
      await shared.ports.linkEvents.close();
      await shared.ports.demoLog.close();
      await shared.close();
    },
  };
  /** Connects now: a command that will announce fails before it changes anything when Redis is down. */
  return { events, connect: async () => void (await open()) };
}
