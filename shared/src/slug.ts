// Store slug rules: the admin dialog's auto-generation and the store form's format check.

/** Slugs the store form accepts: lowercase letters, digits and hyphens only. */
export const SLUG_PATTERN = /^[a-z0-9-]+$/;

/** Derives a slug from a store name: lowercase, keep [a-z0-9], spaces and hyphens, spaces to hyphens, collapse and trim hyphens. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9\s-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** True when the slug passes the store form's rule (non-empty, only [a-z0-9-]). */
export function isValidSlug(slug: string): boolean {
  return SLUG_PATTERN.test(slug);
}
