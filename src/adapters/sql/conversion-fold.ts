/**
 * The figures of leads and sales, folded in batches (docs/adr/045). A lead or sale writes one
 * `conversion_pending` row in its own transaction; a fold deletes a batch of them and adds their
 * sums to the daily figures, the variants' daily figures and the links' counters in one
 * transaction, so a hot link's rows are locked once per batch rather than once per sale, and a
 * figure is never lost: until folded, its row is committed in `conversion_pending`.
 */
import type { ConvertedLink } from '../../core/ports/conversion-store.ts';
import { type Row, revenueOf } from './rows.ts';
import { type Param, q, type Script } from './script.ts';

/** Rows written per statement of a fold. */
const ROWS_PER_STATEMENT = 100;

/** A lead (currency '') or a sale (its currency and amount) waiting for its figures. */
export function* addPending(
  link: ConvertedLink,
  workspaceId: number,
  day: string,
  currency: string,
  amount: number,
): Script<void> {
  const lead = currency === '';
  yield q(
    `INSERT INTO conversion_pending (link_id, workspace_id, variant, day, currency, leads, sales, revenue)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    link.linkId,
    workspaceId,
    link.variant,
    day,
    currency,
    lead ? 1 : 0,
    lead ? 0 : 1,
    lead ? 0 : amount,
  );
}

interface Sum {
  key: Param[];
  leads: number;
  sales: number;
  revenue: number;
}

/** Sums rows by the columns `by`, in the order of their keys (every fold locks rows in one order). */
function sums(rows: Row[], by: string[]): Sum[] {
  const found = new Map<string, Sum>();
  for (const row of rows) {
    const key = by.map((column) => row[column] as Param);
    const text = JSON.stringify(key);
    let sum = found.get(text);
    if (!sum) {
      sum = { key, leads: 0, sales: 0, revenue: 0 };
      found.set(text, sum);
    }
    sum.leads += Number(row.leads);
    sum.sales += Number(row.sales);
    sum.revenue += Number(row.revenue);
  }
  return [...found.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, sum]) => sum);
}

function* upsert(table: string, columns: string[], conflict: string, all: Sum[]): Script<void> {
  for (let start = 0; start < all.length; start += ROWS_PER_STATEMENT) {
    const part = all.slice(start, start + ROWS_PER_STATEMENT);
    const marks = `(${[...columns, 'leads', 'sales', 'revenue'].map(() => '?').join(', ')})`;
    yield q(
      `INSERT INTO ${table} (${columns.join(', ')}, leads, sales, revenue)
       VALUES ${part.map(() => marks).join(', ')}
       ON CONFLICT (${conflict}) DO UPDATE
       SET leads = ${table}.leads + excluded.leads, sales = ${table}.sales + excluded.sales,
           revenue = ${table}.revenue + excluded.revenue`,
      ...part.flatMap((sum) => [...sum.key, sum.leads, sum.sales, sum.revenue]),
    );
  }
}

/**
 * Folds up to `limit` pending rows, oldest first; how many. On PostgreSQL rows another instance is
 * folding are skipped (`skipLocked`); SQLite's writer lock already orders folds.
 */
export function* fold(limit: number, skipLocked: boolean): Script<number> {
  const rows = yield q(
    `DELETE FROM conversion_pending WHERE id IN
       (SELECT id FROM conversion_pending ORDER BY id LIMIT ?${skipLocked ? ' FOR UPDATE SKIP LOCKED' : ''})
     RETURNING link_id, workspace_id, variant, day, currency, leads, sales, revenue`,
    limit,
  );
  if (rows.length === 0) return 0;
  yield* upsert(
    'conversion_daily',
    ['link_id', 'workspace_id', 'day', 'currency'],
    'link_id, day, currency',
    sums(rows, ['link_id', 'workspace_id', 'day', 'currency']),
  );
  const variants = rows.filter((row) => row.variant !== null && row.variant !== undefined);
  yield* upsert(
    'conversion_variant_daily',
    ['link_id', 'variant', 'day', 'currency'],
    'link_id, variant, day, currency',
    sums(variants, ['link_id', 'variant', 'day', 'currency']),
  );
  for (const link of sums(rows, ['link_id'])) {
    // The UPDATE locks the link's row first, so the revenue it returns is the latest one.
    const [row] = yield q(
      'UPDATE links SET leads = leads + ?, sales = sales + ? WHERE id = ? RETURNING revenue',
      link.leads,
      link.sales,
      ...link.key,
    );
    if (!row || link.sales === 0) continue;
    const revenue = { ...revenueOf(row.revenue) };
    for (const sale of sums(
      rows.filter((r) => Number(r.link_id) === Number(link.key[0]) && r.currency !== ''),
      ['currency'],
    )) {
      const currency = String(sale.key[0]);
      revenue[currency] = (revenue[currency] ?? 0) + sale.revenue;
    }
    yield q('UPDATE links SET revenue = ? WHERE id = ?', JSON.stringify(sortedRevenue(revenue)), ...link.key);
  }
  return rows.length;
}

function sortedRevenue(revenue: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(revenue).sort(([a], [b]) => (a < b ? -1 : 1)));
}
