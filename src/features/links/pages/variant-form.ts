import type { Link } from '../../../core/entities.ts';
import { MAX_VARIANTS } from '../../../core/link-variants.ts';
import { DEFAULT_TIME_ZONE } from '../../../core/time-zone.ts';
import type { LinkPatch } from '../link-requests.ts';
import { inputTimeOf, instantOf } from './rule-form.ts';

/**
 * The edit panel's A/B test (docs/api.md §20.x) as a form sends it: up to four URL rows with a
 * weight each, and the end as a date and time in the workspace's zone. Empty rows are ignored; the
 * API's checks (300 and the target checks) judge the rest.
 */
export interface VariantForm {
  rows: Array<{ url: string; weight: string }>;
  /** `YYYY-MM-DDTHH:MM` in `zone`, or '' for none. */
  endsAt: string;
  zone: string;
}

const text = (body: Record<string, unknown>, name: string) =>
  typeof body[name] === 'string' ? (body[name] as string) : '';

/** The form's test, or undefined when it had no test fields (an older page leaves the test as it is). */
export function readVariantForm(raw: unknown, zone: string = DEFAULT_TIME_ZONE): VariantForm | undefined {
  const body = (raw ?? {}) as Record<string, unknown>;
  if (text(body, 'variants_shown') === '') return undefined;
  const rows = Array.from({ length: MAX_VARIANTS }, (_, i) => ({
    url: text(body, `variant_url_${i}`).trim(),
    weight: text(body, `variant_weight_${i}`).trim(),
  }));
  return { rows, endsAt: text(body, 'test_ends_at').trim(), zone };
}

/** The link's test as the form shows it, with empty rows up to four (two weights of 50 for a new one). */
export function variantFormOf(
  link: Pick<Link, 'test'> | null,
  zone: string = DEFAULT_TIME_ZONE,
): VariantForm {
  const variants = link?.test?.variants ?? [];
  const rows = Array.from({ length: MAX_VARIANTS }, (_, i) => {
    const variant = variants[i];
    if (variant) return { url: variant.url, weight: String(variant.weight) };
    return { url: '', weight: variants.length === 0 && i < 2 ? '50' : '0' };
  });
  const endsAt = link?.test?.endsAt ? inputTimeOf(link.test.endsAt, zone) : '';
  return { rows, endsAt, zone };
}

/** A new link's test as the create form names it: none without a URL row; the API checks the rest. */
export function variantDraft(form: VariantForm | undefined): Pick<LinkPatch, 'variants' | 'testEndsAt'> {
  const given = (form?.rows ?? [])
    .filter((row) => row.url !== '')
    .map((row) => ({ url: row.url, weight: row.weight === '' ? Number.NaN : Number(row.weight) }));
  if (!form || given.length === 0) return {};
  return {
    variants: given,
    ...(form.endsAt === '' ? {} : { testEndsAt: instantOf(form.endsAt, form.zone) }),
  };
}

/** What the form changes of the test, and only that. */
export function variantChanges(link: Link, form: VariantForm): Pick<LinkPatch, 'variants' | 'testEndsAt'> {
  const patch: Pick<LinkPatch, 'variants' | 'testEndsAt'> = {};
  const given = form.rows
    .filter((row) => row.url !== '')
    .map((row) => ({ url: row.url, weight: row.weight === '' ? Number.NaN : Number(row.weight) }));
  const current = link.test?.variants ?? [];
  const same =
    given.length === current.length &&
    given.every((row, i) => row.url === current[i]?.url && row.weight === current[i]?.weight);
  if (!same) patch.variants = given.length === 0 ? null : given;
  const shown = link.test?.endsAt ? inputTimeOf(link.test.endsAt, form.zone) : '';
  if (form.endsAt !== shown && given.length > 0)
    patch.testEndsAt = form.endsAt === '' ? null : instantOf(form.endsAt, form.zone);
  return patch;
}
