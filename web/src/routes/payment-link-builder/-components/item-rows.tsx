// The builder's product rows (SPEC §2): price numeric with step 0.01 and minimum 0, quantity
// minimum 1, and a remove button only while more than one row exists.
import type { LinkBuilderItem } from '@store/shared';

/** Editable item rows; `onChange` receives the whole new list. */
export function ItemRows(props: {
  items: readonly LinkBuilderItem[];
  onChange: (items: LinkBuilderItem[]) => void;
}) {
  const update = (index: number, patch: Partial<LinkBuilderItem>) =>
    props.onChange(props.items.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  return (
    <div className="item-rows">
      {props.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own.
        <fieldset key={index} className="item-row">
          <legend className="visually-hidden">Item {index + 1}</legend>
          <div className="field">
            <label htmlFor={`item-${index}-title`}>Title</label>
            <input
              id={`item-${index}-title`}
              value={item.title}
              onChange={(e) => update(index, { title: e.target.value })}
            />
          </div>
          <div className="field field-narrow">
            <label htmlFor={`item-${index}-price`}>Price (USDC)</label>
            <input
              id={`item-${index}-price`}
              type="number"
              inputMode="decimal"
              step="0.01"
              min="0"
              value={item.priceUsdc}
              onChange={(e) => update(index, { priceUsdc: e.target.value })}
            />
          </div>
          <div className="field field-narrow">
            <label htmlFor={`item-${index}-quantity`}>Quantity</label>
            <input
              id={`item-${index}-quantity`}
              type="number"
              inputMode="numeric"
              min="1"
              value={item.quantity}
              onChange={(e) => update(index, { quantity: e.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={`item-${index}-image`}>Image URL (optional)</label>
            <input
              id={`item-${index}-image`}
              type="url"
              value={item.imageUrl ?? ''}
              onChange={(e) => update(index, { imageUrl: e.target.value })}
            />
          </div>
          {props.items.length > 1 && (
            <button
              type="button"
              className="button button-quiet button-small"
              aria-label={`Remove item ${index + 1}`}
              onClick={() => props.onChange(props.items.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          )}
        </fieldset>
      ))}
      <button
        type="button"
        className="button button-quiet"
        onClick={() =>
          props.onChange([...props.items, { title: '', priceUsdc: '', quantity: '1' }])
        }
      >
        + Add Item
      </button>
    </div>
  );
}
