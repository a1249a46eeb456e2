// A store's products on its admin page: title, price, stock, published, sync state, and the Edit
// and Delete actions. Deleting needs the network and is confirmed in a dialog. On a phone each
// product is a card, so Edit and Delete never sit past a sideways scroll.
import { SyncBadge } from '../../../admin/components/badges.tsx';
import type { MerchantProduct } from '../../../admin/types.ts';
import type { Tracked } from '../../../admin/use-merchant-data.ts';
import { usdc } from '../../../lib/format.ts';
import '../../../admin/table-cards.css';

/** The table of products (or its empty text). */
export function ProductTable(props: {
  products: readonly Tracked<MerchantProduct>[];
  /** False for a role that may not change products: the list without its buttons. */
  canEdit?: boolean;
  onEdit: (product: MerchantProduct) => void;
  onDelete: (product: MerchantProduct) => void;
}) {
  if (props.products.length === 0) {
    return <p className="muted">No products yet. Add your first product to start selling.</p>;
  }
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Title</th>
            <th scope="col">Price</th>
            <th scope="col">Inventory</th>
            <th scope="col">Published</th>
            {props.canEdit !== false && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {props.products.map(({ item, sync, local }) => (
            <tr key={item.id} aria-label={item.title}>
              <th scope="row">
                {item.title} <SyncBadge sync={sync} />
              </th>
              <td data-label="Price">{usdc(item.priceUsdc)}</td>
              <td data-label="Inventory">
                {item.inventory === 0 ? 'Not tracked' : item.inventory}
              </td>
              <td data-label="Published">{item.isPublished ? 'Yes' : 'No'}</td>
              {props.canEdit !== false && (
                <td>
                  <div className="actions actions-start">
                    <button
                      type="button"
                      className="button button-quiet button-small"
                      onClick={() => props.onEdit(item)}
                      aria-label={`Edit ${item.title}`}
                    >
                      Edit
                    </button>
                    {!local && sync === 'synced' && (
                      <button
                        type="button"
                        className="button button-danger button-small"
                        onClick={() => props.onDelete(item)}
                        aria-label={`Delete ${item.title}`}
                      >
                        Delete
                      </button>
                    )}
                  </div>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
