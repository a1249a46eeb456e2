// Storefront search: every word of the query must appear in the title or description.
import type { CachedProduct } from '../../../../db/db.ts';

/** Products whose title or description contains every word of the query (case-insensitive). */
export function searchProducts(products: readonly CachedProduct[], query: string): CachedProduct[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...products];
  return products.filter((product) => {
    const text = `${product.title} ${product.description ?? ''}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
