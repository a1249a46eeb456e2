// The checkout's discount code: the shopper types a code and applies it; the API says what it takes
// off (or why not), and the order summary shows the lower total. The order is priced again with the
// code on the server when it is placed.
import {
  DISCOUNT_LIMITS,
  type DiscountLine,
  type DiscountRule,
  describeDiscount,
  discountRefusal,
} from '@store/shared';
import { useId, useState } from 'react';
import { errorText } from '../../lib/api.ts';
import { checkDiscountCode } from '../../lib/shop-api.ts';

/** The code field, or the applied code with its effect and a Remove button. */
export function DiscountCode(props: {
  storeId: string;
  lines: readonly DiscountLine[];
  /** The shopper's email when typed, for a per-customer limit. */
  customerEmail: () => string | undefined;
  applied: DiscountRule | undefined;
  onChange: (rule: DiscountRule | undefined) => void;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const apply = async () => {
    const code = text.trim();
    if (!code) {
      setError('Enter a discount code');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const rule = await checkDiscountCode(props.storeId, code, props.customerEmail());
      const refusal = discountRefusal(props.lines, rule);
      if (refusal) setError(refusal);
      else {
        props.onChange(rule);
        setText('');
      }
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  // Note: the cart may change under an applied code (it then stops applying: say why).
  const stopped = props.applied ? discountRefusal(props.lines, props.applied) : undefined;
  return (
    <section className="card discount-code" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Discount code</h2>
      {props.applied ? (
        <div className="discount-applied">
          <p role="status">
            <strong>{props.applied.code}</strong> applied: {describeDiscount(props.applied)}
          </p>
          {stopped && (
            <p className="field-error" role="alert">
              {stopped}
            </p>
          )}
          <button type="button" className="link-button" onClick={() => props.onChange(undefined)}>
            Remove code
          </button>
        </div>
      ) : (
        <div className="discount-entry">
          <label htmlFor={`${id}-code`} className="visually-hidden">
            Discount code
          </label>
          <input
            id={`${id}-code`}
            name="discountCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={DISCOUNT_LIMITS.code}
            placeholder="Enter code"
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            onChange={(event) => setText(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Note: Enter applies the code instead of submitting the order.
              if (event.key === 'Enter') {
                event.preventDefault();
                void apply();
              }
            }}
          />
          <button type="button" className="button" disabled={busy} onClick={() => void apply()}>
            {busy ? 'Checking…' : 'Apply'}
          </button>
          {error && (
            <p id={`${id}-error`} className="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
