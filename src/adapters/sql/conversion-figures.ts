/** The figures of conversions on either dialect: by day and by A/B test variant (docs/api.md §20). */
import type { LinkFilter, StatsScope } from '../../core/analytics/model.ts';
import type { ConversionDay, VariantConversions } from '../../core/ports/conversion-store.ts';
import type { Row } from './rows.ts';
import { type Param, q, type Script } from './script.ts';

/** The links of a workspace a group, tag or domain keeps, as one condition on `link_id`. */
function linksKept(workspaceId: number, links: LinkFilter | undefined): { sql: string; params: Param[] } {
  const where: string[] = [];
  const params: Param[] = [];
  if (links?.groupId !== undefined) {
    where.push('link_id IN (SELECT id FROM links WHERE workspace_id = ? AND group_id = ?)');
    params.push(workspaceId, links.groupId);
  }
  if (links?.domainId !== undefined) {
    where.push('link_id IN (SELECT id FROM links WHERE workspace_id = ? AND domain_id = ?)');
    params.push(workspaceId, links.domainId);
  }
  if (links?.tag !== undefined) {
    where.push(
      'link_id IN (SELECT t.link_id FROM link_tags t JOIN links k ON k.id = t.link_id WHERE k.workspace_id = ? AND t.tag = ?)',
    );
    params.push(workspaceId, links.tag);
  }
  return { sql: where.map((condition) => ` AND ${condition}`).join(''), params };
}

/** Sums rows of (currency, leads, sales, revenue) into figures, sales only on a currency's row. */
function add(into: { leads: number; sales: number; revenue: Record<string, number> }, row: Row): void {
  into.leads += Number(row.leads ?? 0);
  const sales = Number(row.sales ?? 0);
  if (row.currency !== '' && sales > 0) {
    into.sales += sales;
    const currency = String(row.currency);
    into.revenue[currency] = (into.revenue[currency] ?? 0) + Number(row.revenue ?? 0);
  }
}

export function* conversionDays(
  scope: StatsScope,
  fromDay: string,
  toDay: string,
  links?: LinkFilter,
): Script<ConversionDay[]> {
  const [column, id] = 'linkId' in scope ? ['link_id', scope.linkId] : ['workspace_id', scope.workspaceId];
  const kept = 'workspaceId' in scope ? linksKept(scope.workspaceId, links) : { sql: '', params: [] };
  const rows = yield q(
    `SELECT day, currency, SUM(leads) AS leads, SUM(sales) AS sales, SUM(revenue) AS revenue
     FROM conversion_daily WHERE ${column} = ? AND day >= ? AND day <= ?${kept.sql}
     GROUP BY day, currency ORDER BY day, currency`,
    id,
    fromDay,
    toDay,
    ...kept.params,
  );
  const days: ConversionDay[] = [];
  for (const row of rows) {
    const day = String(row.day);
    let last = days.at(-1);
    if (last?.day !== day) {
      last = { day, leads: 0, sales: 0, revenue: {} };
      days.push(last);
    }
    add(last as { leads: number; sales: number; revenue: Record<string, number> }, row);
  }
  return days;
}

/** A link's figures per variant over the range's UTC days, variants without any omitted. */
export function* variantConversions(
  linkId: number,
  fromDay: string,
  toDay: string,
): Script<VariantConversions[]> {
  const rows = yield q(
    `SELECT variant, currency, SUM(leads) AS leads, SUM(sales) AS sales, SUM(revenue) AS revenue
     FROM conversion_variant_daily WHERE link_id = ? AND day >= ? AND day <= ?
     GROUP BY variant, currency ORDER BY variant, currency`,
    linkId,
    fromDay,
    toDay,
  );
  const variants: VariantConversions[] = [];
  for (const row of rows) {
    const variant = String(row.variant);
    let last = variants.at(-1);
    if (last?.variant !== variant) {
      last = { variant, leads: 0, sales: 0, revenue: {} };
      variants.push(last);
    }
    add(last as { leads: number; sales: number; revenue: Record<string, number> }, row);
  }
  return variants;
}
