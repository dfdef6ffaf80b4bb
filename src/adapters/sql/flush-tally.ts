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
  /** Rows in order of their first two columns, both numbers (an id and a day or hour). */
  sorted(): Row[] {
    return [...this.rows.values()].sort(byIdAndBucket);
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
  /**
   * [id, bucket, dimension, value, clicks] rows, in key order (concurrent flushes lock alike): the
   * levels are sorted one by one, each a few keys, never the flush's rows as a whole.
   */
  rows(): Array<[number, number, string, string, number]> {
    const rows: Array<[number, number, string, string, number]> = [];
    for (const id of sortedKeys(this.#buckets, byNumber)) {
      const buckets = this.#buckets.get(id) as Map<number, Tally>;
      for (const bucket of sortedKeys(buckets, byNumber)) {
        const tally = buckets.get(bucket) as Tally;
        for (const dim of sortedKeys(tally)) {
          const values = tally.get(dim) as Map<string, number>;
          for (const value of sortedKeys(values))
            rows.push([id, bucket, dim, value, values.get(value) as number]);
        }
      }
    }
    return rows;
  }
}

const byNumber = (a: number, b: number) => a - b;

/** A map's keys in order: numbers by `compare`, texts as `<` orders them (UTF-16 code units). */
function sortedKeys<K>(map: Map<K, unknown>, compare?: (a: K, b: K) => number): K[] {
  const keys = [...map.keys()];
  return keys.length > 1 ? keys.sort(compare) : keys;
}

function byIdAndBucket(a: unknown[], b: unknown[]): number {
  return (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number);
}
