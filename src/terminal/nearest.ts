/** How far one typed word is from the names it may have meant, and the nearest of them. */

/**
 * How many edits turn `a` into `b`: inserting, deleting or replacing a character, or swapping two
 * neighbours (`lsit` → `list` is one edit), each character edited once (optimal string alignment).
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table: two rows back (for swaps), the last one, the one being filled.
  let before: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((last[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (last[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      row.push(best);
    }
    before = last;
    last = row;
  }
  return last[b.length] ?? 0;
}

/**
 * Whether `typed` is near enough `name` to be a slip for it: at most two edits, or a third of the
 * name for longer ones, and never a word replaced whole (`x` is not a slip for `key`).
 */
function near(typed: string, name: string, distance: number): boolean {
  return distance <= Math.max(2, Math.floor(name.length / 3)) && distance < typed.length;
}

export interface Nearest {
  name: string;
  distance: number;
}

/** The candidate nearest `typed` if it is near enough; of equally near ones, the first. */
export function nearest(typed: string, candidates: Iterable<string>): Nearest | undefined {
  let found: Nearest | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (near(typed, name, distance) && (found === undefined || distance < found.distance)) {
      found = { name, distance };
    }
  }
  return found;
}
