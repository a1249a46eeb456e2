// Route /store/{slug}/checkout: the store checkout (docs/screens.md#store-checkout): Customer
// Information, Shipping Address (US states and DC), Shipping Method (default free), Order Summary
// with 8% tax, and 'Proceed to Payment' to /store/{slug}/payment/{orderId}.
import { PAGE_TEXTS } from '@store/shared';
import { createFileRoute, Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { BackIcon, CartIcon } from '../../../components/icons.tsx';
import { LoadingPage, MessageCard } from '../../../components/message-card.tsx';
import { useCart } from '../../../db/cart.ts';
import { CheckoutForm } from './-components/checkout-form.tsx';
import { useCurrentStore } from './-components/store-context.tsx';

export const Route = createFileRoute('/store/$slug/checkout')({ component: StoreCheckoutPage });

function StoreCheckoutPage() {
  const { slug } = Route.useParams();
  const store = useCurrentStore();
  const cart = useCart(store.data?.id);
  const [placed, setPlaced] = useState(false);
  const navigate = useNavigate();
  const onPlaced = (orderId: string) => {
    setPlaced(true);
    void navigate({ to: '/store/$slug/payment/$orderId', params: { slug, orderId } });
  };

  if (placed) return <LoadingPage text="Redirecting to payment..." />;
  if (store.loading || (store.data && cart === undefined))
    return <LoadingPage text="Loading checkout..." />;
  if (!store.data || !cart || cart.items.length === 0) {
    return (
      <MessageCard
        title={PAGE_TEXTS.emptyCart.title}
        description={PAGE_TEXTS.emptyCart.description}
      >
        <Link to="/store/$slug/" params={{ slug }} className="button">
          <BackIcon size="1em" aria-hidden="true" /> Back to Store
        </Link>
      </MessageCard>
    );
  }
  return (
    <main className="page checkout-page">
      <div className="checkout-top">
        <Link to="/store/$slug/" params={{ slug }} className="back-link">
          <BackIcon size="1em" aria-hidden="true" /> Back to {store.data.name}
        </Link>
        <Link to="/store/$slug/cart" params={{ slug }} className="back-link">
          <CartIcon size="1em" aria-hidden="true" /> Edit cart
        </Link>
      </div>
      <h1>Checkout</h1>
      <CheckoutForm store={store.data} lines={cart.items} slug={slug} onPlaced={onPlaced} />
    </main>
  );
}
