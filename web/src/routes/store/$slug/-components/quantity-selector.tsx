// Quantity selector of the product page (docs/rules.md#quantity-limits): 1 to the stock (99 when
// untracked), minus disabled at 1, plus disabled at the maximum; typed values are clamped.
import { canDecrement, canIncrement, clampQuantity, maxQuantity } from '@store/shared';
import { useId } from 'react';
import { MinusIcon, PlusIcon } from '../../../../components/icons.tsx';

/** A −/number/+ control bound to `value`. */
export function QuantitySelector(props: {
  value: number;
  inventory?: number;
  onChange: (quantity: number) => void;
}) {
  const id = useId();
  const { value, inventory, onChange } = props;
  return (
    <div className="quantity-selector">
      <label htmlFor={id}>Quantity</label>
      <div className="quantity-controls">
        <button
          type="button"
          className="button button-quiet button-icon"
          aria-label="Decrease quantity"
          disabled={!canDecrement(value)}
          onClick={() => onChange(clampQuantity(value - 1, inventory))}
        >
          <MinusIcon size={18} />
        </button>
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={1}
          max={maxQuantity(inventory)}
          value={value}
          onChange={(event) => onChange(clampQuantity(event.target.valueAsNumber, inventory))}
        />
        <button
          type="button"
          className="button button-quiet button-icon"
          aria-label="Increase quantity"
          disabled={!canIncrement(value, inventory)}
          onClick={() => onChange(clampQuantity(value + 1, inventory))}
        >
          <PlusIcon size={18} />
        </button>
      </div>
    </div>
  );
}
