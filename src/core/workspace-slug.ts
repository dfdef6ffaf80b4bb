/** A workspace's address, /w/<slug> (docs/api.md §11): lower-case letters, digits, inner hyphens. */

export const WORKSPACE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Words a slug may not be, so /w/<slug> never shadows a page of its own. */
const RESERVED = new Set(['new', 'admin', 'api', 'settings', 'invitations']);

export function isWorkspaceSlug(value: string): boolean {
  return WORKSPACE_SLUG.test(value) && !RESERVED.has(value);
}

/** The slug of a user's personal workspace: their email's local part, made an address, and their id. */
export function personalSlug(email: string, userId: number): string {
  const local = (email.split('@')[0] ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 30)
    .replace(/-+$/, '');
  return `${local || 'user'}-${userId}`;
}
