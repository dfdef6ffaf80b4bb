import type { EventTable } from '../core/analytics/event-table.ts';
import type { Link } from '../core/entities.ts';
import type { ClickNotices } from '../core/ports/webhook-store.ts';

/**
 * The events features tell each other about inside one process (docs/adr/034). Each names what it
 * carries and what a listener answers: most answer nothing; a `…ing` event is asked while its
 * emitter's work is under way, and what listeners answer goes into that work (the click events of
 * a flush are written in the flush's transaction).
 */
export interface SnipEvents {
  /** A link was created here (its code may have been asked for and remembered as unknown). */
  'link.created': { payload: Link; answer: void };
  /** A takedown (a link disabled, a workspace suspended) was made somewhere: cached links may be stale. */
  'takedowns.changed': { payload: undefined; answer: void };
  /** A flush is about to write these click events: what should be written with them? */
  'clicks.flushing': { payload: EventTable; answer: ClickNotices | undefined };
}

export type EventName = keyof SnipEvents;
export type Payload<E extends EventName> = SnipEvents[E]['payload'];
export type Answer<E extends EventName> = SnipEvents[E]['answer'];
export type Listener<E extends EventName> = (payload: Payload<E>) => Answer<E> | Promise<Answer<E>>;
