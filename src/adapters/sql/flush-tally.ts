/** Sums a flush is added up in before anything is written (flush-rows.ts, flush-hourly.ts). */

/** Rows keyed by text, one number of each added to. */
export class Sums<Row extends unknown[]> {
  readonly rows = new Map<string, Row>();
  add(key: string, make: () => Row, index: number, amount: number): void {
    const row = this.rows.get(key);
    if (row) (row[index] as number) += amount;
    else {
      const made = make();
      (made[index] as number) = amount;
      this.rows.set(key, made);
    }
  }
  sorted(): Row[] {
    return [...this.rows.values()].sort(compareRows);
  }
}

/** Clicks per dimension and value of one id's day or hour. */
export type Tally = Map<string, Map<string, number>>;

export function bump(tally: Tally, dim: string, value: string, n: number): void {
  let values = tally.get(dim);
  if (!values) {
    values = new Map();
    tally.set(dim, values);
  }
  values.set(value, (values.get(value) ?? 0) + n);
}

/** Adds every value of `from` into `into`. */
export function addTally(into: Tally, from: Tally): void {
  for (const [dim, values] of from) for (const [value, n] of values) bump(into, dim, value, n);
}

/** The stat rows of one scope per id and bucket (day or hour), in nested maps: no key built per click. */
export class StatTally {
  readonly #buckets = new Map<number, Map<number, Tally>>();
  of(id: number, bucket: number): Tally {
    let buckets = this.#buckets.get(id);
    if (!buckets) {
      buckets = new Map();
      this.#buckets.set(id, buckets);
    }
    let tally = buckets.get(bucket);
    if (!tally) {
      tally = new Map();
      buckets.set(bucket, tally);
    }
    return tally;
  }
  *tallies(): Generator<[number, number, Tally]> {
    for (const [id, buckets] of this.#buckets)
      for (const [bucket, tally] of buckets) yield [id, bucket, tally];
  }
  /** [id, bucket, dimension, value, clicks] rows, in key order (concurrent flushes lock alike). */
  rows(): Array<[number, number, string, string, number]> {
    const rows: Array<[number, number, string, string, number]> = [];
    for (const [id, bucket, tally] of this.tallies())
      for (const [dim, values] of tally)
        for (const [value, n] of values) rows.push([id, bucket, dim, value, n]);
    return rows.sort(compareRows);
  }
}

export function compareRows(a: unknown[], b: unknown[]): number {
  for (let i = 0; i < 4; i++) {
    const [x, y] = [a[i], b[i]];
    if (x === y || x === undefined) continue;
    return (x as number | string) < (y as number | string) ? -1 : 1;
  }
  return 0;
}
