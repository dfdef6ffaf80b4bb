/** The card a link previewer (a chat app, a social network) shows for a link (docs/api.md §16). */
export interface LinkPreview {
  title: string;
  description: string;
  /** An https URL; null: none. */
  image: string | null;
}
