// One line of the cart page: image, title, unit price, a quantity control within the product's
// limit (docs/rules.md#quantity-limits: 1 to the stock, 99 when untracked; a typed 0 removes the
// line), Remove, and the line total. Changes go straight to IndexedDB, so they work offline.
import { canDecrement, canIncrement, clampQuantity, maxQuantity } from '@store/shared';
import { Link } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState } from 'react';
import { MinusIcon, PlusIcon, TrashIcon } from '../../../../components/icons.tsx';
import { ProductImage } from '../../../../components/product-image.tsx';
import { lineTotalOf, removeFromCart, setCartQuantity } from '../../../../db/cart.ts';
import type { CartRow } from '../../../../db/db.ts';
import { usdc } from '../../../../lib/format.ts';

/**
 * A cart line; `inventory` is the product's stock as last read from the catalogue, if known, and
 * `soldOut` says nothing of it is left to buy (the line then cannot be checked out).
 */
export function CartLine(props: {
  line: CartRow;
  slug: string;
  inventory?: number;
  soldOut?: boolean;
}) {
  const { line, slug } = props;
  const inventory = props.inventory ?? line.inventory;
  const limit = maxQuantity(inventory);
  const inputId = useId();
  const titleId = useId();
  const [draft, setDraft] = useState(String(line.quantity));
  const [note, setNote] = useState('');
  // Saves not answered yet: while some are, the field shows what was asked, not older answers.
  const pending = useRef(0);
  // Note: the field follows the saved quantity (another tab, a capped save) once saves settle.
  useEffect(() => {
    if (pending.current === 0) setDraft(String(line.quantity));
  }, [line.quantity]);

  // Note: − and + count from what the field shows, so quick taps add up before IndexedDB answers.
  const drafted = Number(draft);
  const shown = Number.isInteger(drafted) && drafted > 0 ? drafted : line.quantity;
  const step = (delta: number) => {
    const next = clampQuantity(shown + delta, inventory);
    setDraft(String(next));
    void save(next);
  };

  const save = async (quantity: number) => {
    pending.current += 1;
    let saved: number;
    try {
      saved = await setCartQuantity(line.storeId, line.productId, quantity, inventory);
    } finally {
      pending.current -= 1;
    }
    if (saved !== quantity && saved > 0) setDraft(String(saved));
    setNote(saved > 0 && saved < quantity ? limitText(limit, inventory) : '');
  };
  // The catalogue's stock went below the line's quantity since it was added: the line follows it.
  const over = line.quantity > limit;
  useEffect(() => {
    if (!over) return;
    void setCartQuantity(line.storeId, line.productId, limit, inventory).then(() =>
      setNote(`${limitText(limit, inventory)}: quantity lowered to ${limit}`),
    );
  }, [over, line.storeId, line.productId, limit, inventory]);
  // A typed value is saved when it is a whole number; 0 removes the line, anything else (empty,
  // letters) puts the saved quantity back.
  const commitDraft = () => {
    const typed = Number(draft.trim());
    if (draft.trim() === '' || !Number.isInteger(typed)) setDraft(String(line.quantity));
    else if (typed !== line.quantity) void save(typed);
  };
  const params = { slug, productId: line.productId };
  const total = lineTotalOf(line);

  return (
    <li className="card cart-line" aria-labelledby={titleId} data-testid="cart-line">
      <Link
        to="/store/$slug/product/$productId"
        params={params}
        className="cart-line-image"
        tabIndex={-1}
        aria-hidden="true"
      >
        <ProductImage src={line.imageUrl} alt="" />
      </Link>
      <div className="cart-line-body">
        <div className="cart-line-head">
          <div>
            <h2 id={titleId} className="cart-line-title">
              <Link to="/store/$slug/product/$productId" params={params}>
                {line.title}
              </Link>
            </h2>
            <p className="muted cart-line-price">
              <span data-testid="unit-price">{usdc(line.priceUsdc)}</span> each
            </p>
            {props.soldOut && (
              <p className="sold-out" role="status">
                Sold out: remove it to check out
              </p>
            )}
          </div>
          <p className="cart-line-total" data-testid="line-total">
            {total === undefined ? '—' : usdc(total)}
          </p>
        </div>
        <div className="cart-line-controls">
          <div className="quantity-controls">
            <button
              type="button"
              className="button button-quiet button-icon"
              aria-label={`Decrease quantity of ${line.title}`}
              disabled={!canDecrement(shown)}
              onClick={() => step(-1)}
            >
              <MinusIcon size={18} />
            </button>
            <label htmlFor={inputId} className="visually-hidden">
              Quantity of {line.title}
            </label>
            <input
              id={inputId}
              type="number"
              inputMode="numeric"
              min={0}
              max={limit}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              onBlur={commitDraft}
              onKeyDown={(event) => {
                if (event.key === 'Enter') commitDraft();
              }}
            />
            <button
              type="button"
              className="button button-quiet button-icon"
              aria-label={`Increase quantity of ${line.title}`}
              disabled={!canIncrement(shown, inventory)}
              onClick={() => step(1)}
            >
              <PlusIcon size={18} />
            </button>
          </div>
          <button
            type="button"
            className="button button-quiet button-small cart-line-remove"
            aria-label={`Remove ${line.title}`}
            onClick={() => void removeFromCart(line.storeId, line.productId)}
          >
            <TrashIcon size={16} aria-hidden="true" />
            <span className="cart-line-remove-text">Remove</span>
          </button>
        </div>
        <p className="small cart-line-note" aria-live="polite" data-testid="line-note">
          {note || (line.quantity >= limit ? limitText(limit, inventory) : '')}
        </p>
      </div>
    </li>
  );
}

/** Why the quantity stops here: the stock, or the per-line maximum when stock is not tracked. */
export function limitText(limit: number, inventory: number | undefined): string {
  return inventory !== undefined && inventory > 0
    ? `Only ${limit} available`
    : `At most ${limit} per order`;
}
