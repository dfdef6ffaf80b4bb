import { UnavailableError } from '../core/errors.ts';
import type { Store } from '../core/ports/store.ts';

/**
 * Store calls no request waits on: background writes (clicks, bulk imports, the webhooks' outbox),
 * start-up and shutdown. A click batch must not be given up while its transaction may still commit:
 * it would be counted twice; nor a batch of delivery outcomes: its deliveries would be sent again.
 */
const UNBOUNDED = new Set<string>([
  'addClicks',
  'insertLinksBulk',
  'migrate',
  'ensureDefaultPlans',
  'close',
  'claimDeliveries',
  'finishDeliveries',
  'pendingDeliveries',
  'renewDeliveries',
  'nextDeliveryAt',
  'purgeDeliveries',
]);

/**
 * The same store, every call a request waits on bounded by `ms` (docs/api.md §10, STORE_TIMEOUT_MS):
 * past it the caller gets an UnavailableError (503) at once, while the call itself runs on — a write
 * that commits late was never acknowledged, so no answered link can be lost.
 */
export function withDeadline(store: Store, ms: number): Store {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || UNBOUNDED.has(property))
        return value;
      let wrapped = bound.get(property);
      if (!wrapped) {
        wrapped = (...args: unknown[]) => within(value.apply(target, args) as Promise<unknown>, ms, property);
        bound.set(property, wrapped);
      }
      return wrapped;
    },
  });
}

export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UnavailableError(`The store did not answer within ${ms} ms (${what}).`)),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
