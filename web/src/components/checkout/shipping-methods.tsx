// Shipping method radio group (docs/rules.md#shipping-methods): native radios in a fieldset, so
// arrow keys work.
import type { ShippingMethod } from '@store/shared';
import { useId } from 'react';
import { usdc } from '../../lib/format.ts';

/** One offered method with its price and delivery time. */
export interface ShippingChoice {
  method: ShippingMethod;
  label: string;
  delivery: string;
  priceUsdc: string;
}

/** The radio group; `value` undefined selects nothing. */
export function ShippingMethods(props: {
  choices: readonly ShippingChoice[];
  value: ShippingMethod | undefined;
  onChange: (method: ShippingMethod) => void;
}) {
  const name = useId();
  return (
    <fieldset className="shipping-methods">
      <legend className="visually-hidden">Shipping method</legend>
      {props.choices.map((choice) => (
        <label key={choice.method} className="radio-card">
          <input
            type="radio"
            name={name}
            value={choice.method}
            checked={props.value === choice.method}
            onChange={() => props.onChange(choice.method)}
          />
          <span className="radio-card-text">
            <strong>{choice.label}</strong>
            <span className="muted">{choice.delivery}</span>
          </span>
          <span className="radio-card-price">
            {choice.priceUsdc === '0.00' ? 'Free' : usdc(choice.priceUsdc)}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
