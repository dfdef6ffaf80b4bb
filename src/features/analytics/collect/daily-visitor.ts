import { hash as digest } from 'node:crypto';
import { DAY_MS, dayText } from '../../../core/days.ts';
import type { Visitors } from '../../../core/ports/visitors.ts';
import { clientAddress, type VisitRequest } from './visit-recorder.ts';

/**
 * A visitor of today as the redirect may ask for it (docs/api.md §20.x, docs/adr/046): a keyed
 * hash of 9.2's daily visitor — SHA-256 over the day's secret, the address and the user agent —
 * computed for links with an A/B test only and never stored nor shown (so not HMAC: one
 * `crypto.hash` call costs about 1 µs where an HMAC object costs over 10). The day's secret is the one the collector
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
  /** Today's secret, as the text each hash starts with. */
  let held: { day: number; secret: string } | undefined;
  const pending = new Map<number, Promise<string>>();
  const fetch = (day: number): Promise<string> => {
    let loading = pending.get(day);
    if (!loading) {
      loading = visitors.secretOf(dayText(day)).then(
        (bytes) => {
          pending.delete(day);
          const secret = bytes.toString('hex');
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
  const hash = (secret: string, req: VisitRequest): Buffer =>
    digest(
      'sha256',
      `${secret}\n${clientAddress(req, options.trustProxy)}\n${req.headers['user-agent'] ?? ''}`,
      'buffer',
    );
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
