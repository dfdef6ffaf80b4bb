import { Refusal } from '../../core/errors.ts';

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

const NAME_RULE = 'a group name has 1-100 characters';
const API_ID_RULE =
  'an API identifier is a lower-case slug (a-z, 0-9, "-"), at most 64 characters, not all digits';

/**
 * A group's name and API identifier as stored: the name trimmed, the identifier lower-cased, or
 * derived from the name when none is given.
 */
export function groupFields(name: string, apiId?: string): { name: string; apiId: string } {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > 100) throw new Refusal('group-name-invalid', NAME_RULE);
  const given = apiId?.trim().toLowerCase();
  const id = given === undefined || given === '' ? slugify(trimmed) : given;
  if (!isApiId(id)) throw new Refusal('group-api-id-invalid', API_ID_RULE);
  return { name: trimmed, apiId: id };
}
