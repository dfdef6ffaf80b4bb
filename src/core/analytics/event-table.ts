import { type ClickEvent, EVENT_DIMENSIONS } from './model.ts';

/** Strings kept per event, as indexes into `values`: the seven dimensions, then the visitor. */
const CODES = EVENT_DIMENSIONS.length + 1;
const VISITOR = EVENT_DIMENSIONS.length;

/** Where each dimension's value sits among an event's codes (EventTable.value's second argument). */
export const DIMENSION_CODE = Object.fromEntries(EVENT_DIMENSIONS.map((dimension, k) => [dimension, k])) as {
  readonly [D in (typeof EVENT_DIMENSIONS)[number]]: number;
};

/** An EventTable as plain data, to post to a thread: each typed array moves as one block. */
export interface EventColumns {
  values: string[];
  links: Float64Array;
  accounts: Float64Array;
  at: Float64Array;
  codes: Uint32Array;
}

/**
 * Click events as columns of numbers over the distinct strings they carry. A flush holds tens of
 * thousands of events for a second or more, between the redirect's thread and the writer's: as
 * objects (or growing arrays) they were promoted to V8's old generation by the megabyte and copied
 * once more to reach the writer; here the numbers sit in typed arrays outside the JS heap, and
 * `Chrome` or a referrer host that many events share is one string (docs/adr/022).
 */
export class EventTable {
  readonly values: string[] = [];
  readonly #index = new Map<string, number>();
  #length = 0;
  #links: Float64Array;
  #accounts: Float64Array;
  #at: Float64Array;
  /** CODES indexes into `values` per event: EVENT_DIMENSIONS in order, then the visitor. */
  #codes: Uint32Array;

  constructor(capacity = 64) {
    const room = Math.max(1, capacity);
    this.#links = new Float64Array(room);
    this.#accounts = new Float64Array(room);
    this.#at = new Float64Array(room);
    this.#codes = new Uint32Array(room * CODES);
  }

  static of(events: readonly ClickEvent[] | EventTable): EventTable {
    if (events instanceof EventTable) return events;
    const table = new EventTable(events.length);
    for (const event of events) table.push(event);
    return table;
  }

  /** The table of toColumns() again (its values are distinct, so its codes stand as they are). */
  static fromColumns(columns: EventColumns): EventTable {
    const table = new EventTable(0);
    for (const value of columns.values) table.#intern(value);
    table.#links = columns.links;
    table.#accounts = columns.accounts;
    table.#at = columns.at;
    table.#codes = columns.codes;
    table.#length = columns.links.length;
    return table;
  }

  get length(): number {
    return this.#length;
  }

  linkId(i: number): number {
    return this.#links[i] as number;
  }
  workspaceId(i: number): number {
    return this.#accounts[i] as number;
  }
  at(i: number): number {
    return this.#at[i] as number;
  }

  /** The i-th event's value of a dimension (its index in EVENT_DIMENSIONS, see DIMENSION_CODE). */
  value(i: number, dimension: number): string {
    return this.values[this.code(i, dimension)] as string;
  }

  /** The index into `values` of the i-th event's value of a dimension. */
  code(i: number, dimension: number): number {
    return this.#codes[i * CODES + dimension] as number;
  }

  /** The index into `values` of the i-th event's visitor. */
  visitorCode(i: number): number {
    return this.#codes[i * CODES + VISITOR] as number;
  }

  push(event: ClickEvent): void {
    const row = this.#row(event.linkId, event.workspaceId, event.at);
    EVENT_DIMENSIONS.forEach((dimension, k) => {
      // Only the variant may be left out (a link without a test); any other gap is the caller's bug.
      const value = dimension === 'variant' ? (event.variant ?? '') : event[dimension];
      this.#codes[row * CODES + k] = this.#intern(value as string);
    });
    this.#codes[row * CODES + VISITOR] = this.#intern(event.visitor);
  }

  /** Adds the i-th event of `from`. */
  #copy(from: EventTable, i: number): void {
    const row = this.#row(from.linkId(i), from.workspaceId(i), from.at(i));
    for (let k = 0; k < CODES; k++) {
      this.#codes[row * CODES + k] = this.#intern(
        from.values[from.#codes[i * CODES + k] as number] as string,
      );
    }
  }

  event(i: number): ClickEvent {
    const event: Record<string, unknown> = {
      linkId: this.linkId(i),
      workspaceId: this.workspaceId(i),
      at: this.at(i),
      visitor: this.values[this.visitorCode(i)],
    };
    EVENT_DIMENSIONS.forEach((dimension, k) => {
      event[dimension] = this.value(i, k);
    });
    return event as unknown as ClickEvent;
  }

  /** Every event as an object, in order. */
  all(): ClickEvent[] {
    return Array.from({ length: this.length }, (_, i) => this.event(i));
  }

  /** Events [start, end) in a table of their own, over the same values: its columns copied in blocks. */
  slice(start: number, end: number): EventTable {
    const to = Math.min(end, this.length);
    const from = Math.min(start, to);
    const table = new EventTable(to - from);
    for (const value of this.values) table.#intern(value);
    table.#links.set(this.#links.subarray(from, to));
    table.#accounts.set(this.#accounts.subarray(from, to));
    table.#at.set(this.#at.subarray(from, to));
    table.#codes.set(this.#codes.subarray(from * CODES, to * CODES));
    table.#length = to - from;
    return table;
  }

  /** This table's events, then those of `other`, in a new table. */
  concat(other: EventTable): EventTable {
    const table = this.slice(0, this.length);
    for (let i = 0; i < other.length; i++) table.#copy(other, i);
    return table;
  }

  /** The columns, copied to arrays of their own (to be moved to another thread). */
  toColumns(): EventColumns {
    return {
      values: this.values,
      links: this.#links.slice(0, this.#length),
      accounts: this.#accounts.slice(0, this.#length),
      at: this.#at.slice(0, this.#length),
      codes: this.#codes.slice(0, this.#length * CODES),
    };
  }

  /** A new row with its numbers; the table grows by doubling (a copy outside the JS heap). */
  #row(linkId: number, workspaceId: number, at: number): number {
    if (this.#length === this.#links.length) {
      const grown = (array: Float64Array) => {
        const bigger = new Float64Array(array.length * 2);
        bigger.set(array);
        return bigger;
      };
      this.#links = grown(this.#links);
      this.#accounts = grown(this.#accounts);
      this.#at = grown(this.#at);
      const codes = new Uint32Array(this.#codes.length * 2);
      codes.set(this.#codes);
      this.#codes = codes;
    }
    const row = this.#length++;
    this.#links[row] = linkId;
    this.#accounts[row] = workspaceId;
    this.#at[row] = at;
    return row;
  }

  #intern(value: string): number {
    let index = this.#index.get(value);
    if (index === undefined) {
      index = this.values.length;
      this.values.push(value);
      this.#index.set(value, index);
    }
    return index;
  }
}
