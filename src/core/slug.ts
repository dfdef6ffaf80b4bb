/** Group API identifiers (docs/api.md §5): lower-case slugs, never all digits so they cannot be read as an ID. */

export const API_ID_PATTERN = /^(?![0-9]+$)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function isApiId(value: string): boolean {
  return API_ID_PATTERN.test(value);
}

/** "Spring Sale 2026!" → "spring-sale-2026"; accents folded; all-digit names get a "group-" prefix. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (slug === '') return 'group';
  return /^[0-9]+$/.test(slug) ? `group-${slug}`.slice(0, 64) : slug;
}
