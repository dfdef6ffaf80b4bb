import { HOT_SET } from './settings.ts';

export interface DeliveryFigures {
  store: 'sqlite' | 'postgres';
  events: number;
  delivered: number;
  duplicates: number;
  /** Seconds to write the events into the outbox (one transaction). */
  queueSeconds: number;
  /** From the queue's commit to the last delivery's arrival (the poll, at most 1 s, included). */
  seconds: number;
  deliveriesPerSecond: number;
  /** The server's CPU from the commit until the outbox was empty, per request the receiver had. */
  cpuUsPerDelivery: number;
  /** The part of it on the main thread (the redirect's), and on the others (the delivery thread's). */
  mainUsPerDelivery: number;
  otherUsPerDelivery: number;
}

export type Kind = 'bare' | 'none' | 'hook';

export interface RedirectFigures {
  links: number;
  rounds: number;
  /** Each measured run's server CPU per request, in µs, in the order they were made. */
  cpuUsPerRequest: Record<Kind, number[]>;
  /** Median with the endpoint minus without. */
  endpointUs: number;
  /** The same on the main thread alone (the redirect's), and as a share of its CPU without an endpoint. */
  mainUsPerRequest: Record<'none' | 'hook', number[]>;
  endpointMainUs: number;
  endpointMainShare: number;
  /**
   * CPU from the start of each Snip run's warm-up to its events all delivered (the hook server's
   * outbox empty) or its clicks written, per human redirect answered meanwhile.
   */
  allInUsPerClick: { none: number[]; hook: number[] };
  /** Seconds the hook server took after each run to deliver what was left. */
  drainSeconds: number[];
  humanClicks: number;
  delivered: number;
  duplicates: number;
  /** Deliveries still waiting when the hook server had stopped (its last flush's included). */
  pendingAtEnd: number;
  /** Human clicks that made no event: past WEBHOOK_OUTBOX_MAX, or no visit recorded. */
  withoutEvent: number;
}

/** The webhooks phase's lines (bench/webhooks-phase.ts), as printed and kept in the results' notes. */

const list = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join(', ');

export function deliveryLine(f: DeliveryFigures): string {
  return (
    `webhooks, ${f.store}: ${f.delivered.toLocaleString('en-US')} of ${f.events.toLocaleString('en-US')} events ` +
    `delivered to a loopback receiver in ${f.seconds.toFixed(2)} s by one server: ` +
    `${f.deliveriesPerSecond.toLocaleString('en-US')} deliveries/s, ${f.cpuUsPerDelivery.toFixed(0)} µs server CPU ` +
    `per delivery (${f.mainUsPerDelivery.toFixed(0)} µs on its main thread, ${f.otherUsPerDelivery.toFixed(0)} µs ` +
    `on the others: the delivery thread's), ${f.duplicates} delivered twice ` +
    `(queued in one transaction in ${f.queueSeconds.toFixed(2)} s)`
  );
}

export function redirectNotes(f: RedirectFigures): string[] {
  const c = f.cpuUsPerRequest;
  return [
    `webhooks: server CPU per hot redirect (10k links, hot set ${HOT_SET}, browser clicks, TRACKING=full, wrk -t1 -c32) ` +
      `in ${f.rounds} rounds (the servers' order alternating): ` +
      `${list(c.none)} µs with no endpoint, ${list(c.hook)} µs with an endpoint hearing link.clicked, ` +
      `bare node:http ${list(c.bare)} µs; difference of the medians ${f.endpointUs.toFixed(2)} µs`,
    `webhooks: the main thread's (the redirect's) CPU per hot redirect: ${list(f.mainUsPerRequest.none)} µs with ` +
      `no endpoint, ${list(f.mainUsPerRequest.hook)} µs with one hearing link.clicked; difference of the medians ` +
      `${f.endpointMainUs.toFixed(2)} µs (${(f.endpointMainShare * 100).toFixed(0)}% more; goal at most 25%)`,
    `webhooks: counting each run's warm-up and what it left to deliver afterwards (${list(f.drainSeconds)} s after ` +
      `the runs), ${list(f.allInUsPerClick.hook)} µs per click with the endpoint vs ${list(f.allInUsPerClick.none)} µs ` +
      `without; ${f.delivered.toLocaleString('en-US')} click events delivered of ${f.humanClicks.toLocaleString('en-US')} ` +
      `human clicks (${f.duplicates} twice), ${f.pendingAtEnd} waiting at the end, ${f.withoutEvent} without an event ` +
      '(past WEBHOOK_OUTBOX_MAX or no visit recorded)',
  ];
}
