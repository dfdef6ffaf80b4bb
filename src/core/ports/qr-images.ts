/** QR code images of a text (docs/api.md §4), rendered where they cost the redirect nothing. */
export interface QrImages {
  /** A PNG of `text`, `width` pixels wide. UnavailableError when too many renders already wait. */
  png(text: string, width: number): Promise<Uint8Array>;
  close(): Promise<void>;
}
