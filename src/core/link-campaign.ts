import type { LinkPreview } from './entities.ts';
import { Refusal } from './errors.ts';
import { parseTargetUrl } from './target-url.ts';

/**
 * Campaign parameters and social previews of a link (docs/api.md §16): `utm` is written into the
 * long URL's query, replacing the same keys where they stand and keeping every other parameter as
 * it was (its bytes untouched); `preview` is the card link previewers get.
 */

export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
/** A UTM value holds at most this many characters (300 above). */
export const MAX_UTM_VALUE = 500;
export const MAX_PREVIEW_TITLE = 200;
export const MAX_PREVIEW_DESCRIPTION = 1000;
const MAX_IMAGE_URL = 2048;

/** The UTM fields as given: each set to a value, or to '' to remove that key from the URL. */
export type Utm = Partial<Record<UtmKey, string>>;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `utm` as a request names it: an object of the five keys, each a string of at most 500 characters (300). */
export function checkUtm(raw: unknown): Utm {
  if (!isRecord(raw))
    throw new Refusal('300', 'utm is an object of source, medium, campaign, term and content.');
  const utm: Utm = {};
  for (const [key, value] of Object.entries(raw)) {
    if (!(UTM_KEYS as readonly string[]).includes(key)) {
      throw new Refusal('300', `utm names only ${UTM_KEYS.join(', ')}.`);
    }
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' || [...value].length > MAX_UTM_VALUE || CONTROL.test(value)) {
      throw new Refusal('300', `A utm value is text of at most ${MAX_UTM_VALUE} characters.`);
    }
    utm[key as UtmKey] = value.trim();
  }
  return utm;
}

/** The name of a raw query parameter (`a%20b=c` → `a b`), or the raw text when it does not decode. */
function nameOf(parameter: string): string {
  const raw = parameter.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/**
 * The URL with the UTM parameters set: a key already in the query is replaced where it stands (its
 * repeats dropped), a new one appended in the order source, medium, campaign, term, content; ''
 * removes the key. Other parameters and the fragment are kept byte for byte.
 */
export function withUtm(url: string, utm: Utm): string {
  const hashAt = url.indexOf('#');
  const fragment = hashAt === -1 ? '' : url.slice(hashAt);
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);
  const pending = new Map<string, string>();
  for (const key of UTM_KEYS) if (utm[key] !== undefined) pending.set(`utm_${key}`, utm[key]);
  const written = new Set<string>();
  const parts: string[] = [];
  for (const parameter of query === '' ? [] : query.split('&')) {
    const name = nameOf(parameter);
    const value = pending.get(name);
    if (value === undefined) {
      parts.push(parameter);
      continue;
    }
    if (written.has(name)) continue;
    written.add(name);
    if (value !== '') parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  for (const [name, value] of pending) {
    if (!written.has(name) && value !== '') parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return `${base}${parts.length > 0 ? `?${parts.join('&')}` : ''}${fragment}`;
}

/** The long URL a request asks for once its `utm` is written in (300 when that is no longer a URL Snip takes). */
export function campaignUrl(url: string, utm: unknown): string {
  if (utm === undefined || utm === null) return url;
  const merged = withUtm(url, checkUtm(utm));
  if (!parseTargetUrl(merged)) {
    throw new Refusal('300', 'With its utm parameters the URL is longer than 2,048 characters.');
  }
  return merged;
}

function text(value: unknown, name: string, max: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || [...value].length > max || CONTROL.test(value.replace(/[\n\t\r]/g, ' '))) {
    throw new Refusal('300', `preview.${name} is text of at most ${max.toLocaleString('en')} characters.`);
  }
  return value.trim();
}

/**
 * `preview` as a request names it (300 otherwise): an object of `title` (at most 200 characters),
 * `description` (at most 1,000), `image` (an https URL of at most 2,048 characters); null removes it.
 */
export function checkPreview(raw: unknown): LinkPreview | null {
  if (raw === null) return null;
  if (!isRecord(raw))
    throw new Refusal('300', 'preview is an object of title, description and image, or null.');
  const { title, description, image, ...rest } = raw;
  if (Object.keys(rest).length > 0)
    throw new Refusal('300', 'preview names only title, description and image.');
  const preview: LinkPreview = {
    title: text(title, 'title', MAX_PREVIEW_TITLE),
    description: text(description, 'description', MAX_PREVIEW_DESCRIPTION),
    image: null,
  };
  if (image !== undefined && image !== null && image !== '') {
    const parsed = typeof image === 'string' && image.length <= MAX_IMAGE_URL ? URL.parse(image) : null;
    if (parsed?.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '') {
      throw new Refusal('300', 'preview.image is an https URL of at most 2,048 characters.');
    }
    preview.image = parsed.href;
  }
  if (preview.title === '' && preview.description === '' && preview.image === null) return null;
  return preview;
}
