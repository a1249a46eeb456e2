// The builder's product rows (docs/screens.md#payment-link-builder): price numeric with step 0.01
// and minimum 0, quantity minimum 1, and a remove button only while more than one row exists.
import type { LinkBuilderItem } from '@store/shared';
import { TextInput } from './text-input.tsx';

/** Editable item rows; `onChange` receives the whole new list; `errors` by `items.{row}.{field}`. */
export function ItemRows(props: {
  items: readonly LinkBuilderItem[];
  onChange: (items: LinkBuilderItem[]) => void;
  errors?: Readonly<Record<string, string>>;
}) {
  const error = (index: number, field: keyof LinkBuilderItem) =>
    props.errors?.[`items.${index}.${field}`];
  const update = (index: number, patch: Partial<LinkBuilderItem>) =>
    props.onChange(props.items.map((item, i) => (i === index ? { ...item, ...patch } : item)));
  return (
    <div className="item-rows">
      {props.items.map((item, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own.
        <fieldset key={index} className="item-row">
          <legend className="visually-hidden">Item {index + 1}</legend>
          <TextInput
            label="Title"
            value={item.title}
            error={error(index, 'title')}
            onChange={(title) => update(index, { title })}
          />
          <TextInput
            label="Price (USDC)"
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            narrow
            value={item.priceUsdc}
            error={error(index, 'priceUsdc')}
            onChange={(priceUsdc) => update(index, { priceUsdc })}
          />
          <TextInput
            label="Quantity"
            type="number"
            inputMode="numeric"
            min="1"
            narrow
            value={String(item.quantity)}
            error={error(index, 'quantity')}
            onChange={(quantity) => update(index, { quantity })}
          />
          <TextInput
            label="Image URL (optional)"
            type="url"
            value={item.imageUrl ?? ''}
            error={error(index, 'imageUrl')}
            onChange={(imageUrl) => update(index, { imageUrl })}
          />
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
