import { createHmac } from 'node:crypto';
import { DAY_MS, dayText } from '../../../core/days.ts';
import type { Visitors } from '../../../core/ports/visitors.ts';
import { clientAddress, type VisitRequest } from './visit-recorder.ts';

/**
 * A visitor of today as the redirect may ask for it (docs/api.md §20.x, docs/adr/046): the keyed
 * hash of 9.2's daily visitor, HMAC-SHA256(the day's secret, address + "\n" + user agent), computed
 * for links with an A/B test only and never stored. The day's secret is the one the collector
 * uses, shared by every instance (memory or Redis), so a visitor gets the same variant all day on
 * any of them.
 */
export interface DailyVisitor {
  /** The hash when today's secret is at hand; undefined otherwise (it is fetched for the next ask). */
  now(req: VisitRequest): Buffer | undefined;
  /** The hash, once today's secret is fetched. */
  of(req: VisitRequest): Promise<Buffer>;
}

export function dailyVisitor(
  visitors: Pick<Visitors, 'secretOf'>,
  options: { trustProxy: false | number; now: () => number },
): DailyVisitor {
  let held: { day: number; secret: Buffer } | undefined;
  const pending = new Map<number, Promise<Buffer>>();
  const fetch = (day: number): Promise<Buffer> => {
    let loading = pending.get(day);
    if (!loading) {
      loading = visitors.secretOf(dayText(day)).then(
        (secret) => {
          pending.delete(day);
          if (!held || held.day <= day) held = { day, secret };
          return secret;
        },
        (error: unknown) => {
          pending.delete(day);
          throw error;
        },
      );
      pending.set(day, loading);
    }
    return loading;
  };
  const hash = (secret: Buffer, req: VisitRequest) =>
    createHmac('sha256', secret)
      .update(`${clientAddress(req, options.trustProxy)}\n${req.headers['user-agent'] ?? ''}`)
      .digest();
  return {
    now(req) {
      const day = Math.floor(options.now() / DAY_MS);
      if (held?.day === day) return hash(held.secret, req);
      // Asked again by the route, which waits for it; the next requests find it held.
      fetch(day).catch(() => undefined);
      return undefined;
    },
    async of(req) {
      const day = Math.floor(options.now() / DAY_MS);
      return hash(held?.day === day ? held.secret : await fetch(day), req);
    },
  };
}
