import type { QrLook } from '../qr-design.ts';

/** QR code images of a text (docs/api.md §4, §16), rendered where they cost the redirect nothing. */
export interface QrImages {
  /**
   * A PNG of `text`, `width` pixels square (wider only when the code has more modules than that),
   * drawn with `look` (black on white, 4 modules of quiet zone, level M without).
   * UnavailableError when too many renders already wait.
   */
  png(text: string, width: number, look?: QrLook): Promise<Uint8Array>;
  /** The same code as a standalone SVG document, `width` wide and high. */
  svg(text: string, width: number, look?: QrLook): Promise<string>;
  close(): Promise<void>;
}
