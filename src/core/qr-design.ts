import { Refusal } from './errors.ts';

/**
 * How a QR code is drawn (docs/api.md §16): its side in pixels, its quiet zone in modules, its two
 * colours and its error correction level. The image route takes what it can of a query and falls
 * back to the defaults for the rest; the API refuses anything it cannot take (300).
 */

export type QrEcc = 'L' | 'M' | 'Q' | 'H';

export type QrFormat = 'png' | 'svg';

/** Everything but the side: what the drawing thread needs besides the text and the width. */
export interface QrLook {
  /** Quiet-zone modules around the code. */
  margin: number;
  /** Colours as `#rrggbb`, lower case. */
  fg: string;
  bg: string;
  ecc: QrEcc;
}

export interface QrDesign extends QrLook {
  size: number;
}

export const QR_SIZE = { min: 64, max: 1024, default: 256 } as const;

/** Four modules is the quiet zone the QR standard asks for; 0 is for a code placed on a background of its own. */
export const QR_MARGIN = { min: 0, max: 16, default: 4 } as const;

/** WCAG 2's ratio for graphics: below it scanners and eyes both struggle. */
export const MIN_QR_CONTRAST = 3;

export const QR_DEFAULT_LOOK: QrLook = { margin: QR_MARGIN.default, fg: '#000000', bg: '#ffffff', ecc: 'M' };

export const QR_ECC_LEVELS: readonly QrEcc[] = ['L', 'M', 'Q', 'H'];

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** `#rgb` or `#rrggbb`, the `#` optional, as `#rrggbb` in lower case; undefined for anything else. */
export function hexColour(raw: string): string | undefined {
  const digits = HEX.exec(raw)?.[1]?.toLowerCase();
  if (digits === undefined) return undefined;
  return `#${digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits}`;
}

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
function luminance(colour: string): number {
  const [r, g, b] = [1, 3, 5].map((at) => {
    const channel = Number.parseInt(colour.slice(at, at + 2), 16) / 255;
    return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (b ?? 0);
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}

/** A whole number of at most `digits` digits (leading zeros aside), or undefined. */
function wholeNumber(raw: string, digits: number): number | undefined {
  if (!/^\d+$/.test(raw)) return undefined;
  const significant = raw.replace(/^0+(?=\d)/, '');
  return significant.length > digits ? Number.POSITIVE_INFINITY : Number(significant);
}

function eccLevel(raw: string): QrEcc | undefined {
  const level = raw.toUpperCase();
  return QR_ECC_LEVELS.find((known) => known === level);
}

const first = (raw: unknown): string | undefined => {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return typeof value === 'string' ? value : undefined;
};

const clamp = (value: number, range: { min: number; max: number }) =>
  Math.min(range.max, Math.max(range.min, value));

/**
 * The image route's reading: the first of repeated values; whole numbers clamped to their range,
 * anything else that value's default; a colour pair under 3:1 means the default colours.
 */
export function lenientQrDesign(query: Record<string, unknown>): QrDesign {
  const read = <T>(name: string, parse: (raw: string) => T | undefined): T | undefined => {
    const raw = first(query[name]);
    return raw === undefined ? undefined : parse(raw);
  };
  const size = read('size', (raw) => wholeNumber(raw, 5));
  const margin = read('margin', (raw) => wholeNumber(raw, 3));
  let fg = read('fg', hexColour) ?? QR_DEFAULT_LOOK.fg;
  let bg = read('bg', hexColour) ?? QR_DEFAULT_LOOK.bg;
  if (contrastRatio(fg, bg) < MIN_QR_CONTRAST) ({ fg, bg } = QR_DEFAULT_LOOK);
  return {
    size: size === undefined ? QR_SIZE.default : clamp(size, QR_SIZE),
    margin: margin === undefined ? QR_MARGIN.default : clamp(margin, QR_MARGIN),
    fg,
    bg,
    ecc: read('ecc', eccLevel) ?? QR_DEFAULT_LOOK.ecc,
  };
}

const refused = (detail: string) => new Refusal('300', detail);

/** One value of the API's query: absent means its default, repeated or unreadable is refused. */
function strictValue<T>(query: Record<string, unknown>, name: string, parse: (raw: string) => T | undefined) {
  const raw = query[name];
  if (raw === undefined) return undefined;
  // The API's validator may have read a number already (`?size=256` as 256).
  const value = typeof raw === 'string' || typeof raw === 'number' ? parse(String(raw)) : undefined;
  if (value === undefined) throw refused(`${name} is not valid.`);
  return value;
}

function inRange(range: { min: number; max: number }, digits: number) {
  return (raw: string) => {
    const value = wholeNumber(raw, digits);
    return value !== undefined && value >= range.min && value <= range.max ? value : undefined;
  };
}

/** The API's reading (docs/api.md §16): every value given must be right, the colours 3:1 apart. */
export function strictQrDesign(query: Record<string, unknown>): QrDesign & { format: QrFormat } {
  const format = strictValue(query, 'format', (raw) =>
    (['png', 'svg'] as const).find((known) => known === raw.toLowerCase()),
  );
  const design: QrDesign = {
    size: strictValue(query, 'size', inRange(QR_SIZE, 4)) ?? QR_SIZE.default,
    margin: strictValue(query, 'margin', inRange(QR_MARGIN, 2)) ?? QR_MARGIN.default,
    fg: strictValue(query, 'fg', hexColour) ?? QR_DEFAULT_LOOK.fg,
    bg: strictValue(query, 'bg', hexColour) ?? QR_DEFAULT_LOOK.bg,
    ecc: strictValue(query, 'ecc', eccLevel) ?? QR_DEFAULT_LOOK.ecc,
  };
  const contrast = contrastRatio(design.fg, design.bg);
  if (contrast < MIN_QR_CONTRAST) {
    throw refused(
      `fg and bg have a contrast of ${contrast.toFixed(2)}:1; at least ${MIN_QR_CONTRAST}:1 scans.`,
    );
  }
  return { ...design, format: format ?? 'png' };
}
