import type { Link } from '../../../core/entities.ts';
import { Refusal } from '../../../core/errors.ts';
import {
  campaignUrl,
  checkPreview,
  checkUtm,
  UTM_KEYS,
  type Utm,
  type UtmKey,
} from '../../../core/link-campaign.ts';
import type { LinkRuleFields } from '../../../core/link-fields.ts';
import { parseTargetUrl } from '../../../core/target-url.ts';

/**
 * The campaign fields of the dashboard's forms (docs/api.md §16) as sent, and what they ask of the
 * service: UTM values (written into the long URL by the service, never here), query forwarding and
 * the social preview. Shapes are checked by the service alone; this only maps text to fields.
 */

export type UtmValues = Record<UtmKey, string>;

export interface PreviewForm {
  title: string;
  description: string;
  image: string;
}

export interface CampaignForm {
  utm: UtmValues;
  forwardQuery: boolean;
  preview: PreviewForm;
  /** Conversion tracking (docs/api.md §20): '' follows the workspace. */
  tracking: Tracking;
}

export type Tracking = '' | 'on' | 'off';
const trackingOf = (value: boolean | null): Tracking => (value === null ? '' : value ? 'on' : 'off');
const trackingValue = (tracking: Tracking): boolean | null => (tracking === '' ? null : tracking === 'on');

/** Which group of fields a refusal is about, to show it next to them. */
export type CampaignFault = 'utm' | 'preview';

/** The hidden field that says the form carried these fields (an unticked box sends nothing). */
export const CAMPAIGN_MARKER = 'campaign_fields';

const EMPTY_UTM: UtmValues = { source: '', medium: '', campaign: '', term: '', content: '' };
const EMPTY_PREVIEW: PreviewForm = { title: '', description: '', image: '' };

export const EMPTY_CAMPAIGN_FORM: CampaignForm = {
  utm: EMPTY_UTM,
  forwardQuery: false,
  preview: EMPTY_PREVIEW,
  tracking: '',
};

function text(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** The fields as sent; undefined when the form did not carry them. */
export function readCampaignForm(raw: unknown): CampaignForm | undefined {
  const body = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  if (body[CAMPAIGN_MARKER] === undefined) return undefined;
  const utm = { ...EMPTY_UTM };
  for (const key of UTM_KEYS) utm[key] = text(body, `utm_${key}`);
  return {
    utm,
    forwardQuery: body.forward_query !== undefined,
    preview: {
      title: text(body, 'preview_title'),
      description: text(body, 'preview_description'),
      image: text(body, 'preview_image').trim(),
    },
    tracking: (['on', 'off'] as const).find((value) => value === body.track_conversions) ?? '',
  };
}

function decoded(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The UTM values a URL carries (the first of each key, decoded), as the edit form starts from. */
export function utmValuesOf(url: string): UtmValues {
  const values = { ...EMPTY_UTM };
  const hashAt = url.indexOf('#');
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return values;
  const seen = new Set<string>();
  for (const parameter of beforeHash.slice(queryAt + 1).split('&')) {
    const at = parameter.indexOf('=');
    const name = decoded(at === -1 ? parameter : parameter.slice(0, at));
    const key = name.slice(4) as UtmKey;
    if (!name.startsWith('utm_') || !UTM_KEYS.includes(key) || seen.has(key)) continue;
    seen.add(key);
    values[key] = at === -1 ? '' : decoded(parameter.slice(at + 1));
  }
  return values;
}

/**
 * The UTM fields that differ from where they started (`base`: nothing on a new link, the current
 * URL's values on an edit); '' for a field emptied, which removes its key. The page's script
 * previews the final URL by the same rule.
 */
export function changedUtm(sent: UtmValues, base: UtmValues = EMPTY_UTM): Utm | undefined {
  const utm: Utm = {};
  // Spaces alone are no change: the service trims what it writes, and a stored value may hold some.
  for (const key of UTM_KEYS) if (sent[key].trim() !== base[key].trim()) utm[key] = sent[key];
  return Object.keys(utm).length > 0 ? utm : undefined;
}

const isEmpty = (preview: PreviewForm) =>
  preview.title.trim() === '' && preview.description.trim() === '' && preview.image === '';

/** What a create form asks for: only what it fills in. */
export function campaignDraft(form: CampaignForm | undefined): LinkRuleFields & { utm?: Utm } {
  if (!form) return {};
  const draft: LinkRuleFields & { utm?: Utm } = {};
  const utm = changedUtm(form.utm);
  if (utm) draft.utm = utm;
  if (form.forwardQuery) draft.forwardQuery = true;
  if (!isEmpty(form.preview)) draft.preview = form.preview;
  if (form.tracking !== '') draft.trackConversions = trackingValue(form.tracking);
  return draft;
}

/** The form of a stored link: its current UTM values, forwarding and preview. */
export function campaignFormOf(link: Link): CampaignForm {
  return {
    utm: utmValuesOf(link.longUrl),
    forwardQuery: link.forwardQuery,
    preview: link.preview
      ? { title: link.preview.title, description: link.preview.description, image: link.preview.image ?? '' }
      : EMPTY_PREVIEW,
    tracking: trackingOf(link.trackConversions),
  };
}

/** What an edit form changes, and only that; `utm` is written into the new URL, or the current one. */
export function campaignChanges(link: Link, form: CampaignForm): LinkRuleFields & { utm?: Utm } {
  const patch: LinkRuleFields & { utm?: Utm } = {};
  const stored = campaignFormOf(link);
  const utm = changedUtm(form.utm, stored.utm);
  if (utm) patch.utm = utm;
  if (form.forwardQuery !== link.forwardQuery) patch.forwardQuery = form.forwardQuery;
  const sent = form.preview;
  const same =
    sent.title.trim() === stored.preview.title &&
    sent.description.trim() === stored.preview.description &&
    sent.image === stored.preview.image;
  if (!same) patch.preview = isEmpty(sent) ? null : sent;
  if (form.tracking !== stored.tracking) patch.trackConversions = trackingValue(form.tracking);
  return patch;
}

function refuses(check: () => unknown): boolean {
  try {
    check();
    return false;
  } catch (error) {
    if (error instanceof Refusal) return true;
    throw error;
  }
}

/**
 * Which fields a 300 refusal is about, found by running their pure checks again: the UTM values,
 * the preview, or the URL once the UTM values are written in (too long); undefined for the rest.
 */
export function campaignFault(
  url: string,
  asked: { utm?: unknown; preview?: unknown },
): CampaignFault | undefined {
  if (asked.utm !== undefined && refuses(() => checkUtm(asked.utm))) return 'utm';
  if (asked.preview !== undefined && refuses(() => checkPreview(asked.preview))) return 'preview';
  if (asked.utm !== undefined && parseTargetUrl(url) && refuses(() => campaignUrl(url, asked.utm))) {
    return 'utm';
  }
  return undefined;
}
