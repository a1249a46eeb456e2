// Route /checkout: checkout needs a store (docs/screens.md#checkout-without-a-store), so this page
// sends the shopper to one.
import { PAGE_TEXTS } from '@store/shared';
import { createFileRoute, Link } from '@tanstack/react-router';
import { MessageCard } from '../components/message-card.tsx';

export const Route = createFileRoute('/checkout')({
  component: () => (
    <MessageCard
      title={PAGE_TEXTS.storeCheckoutRequired.title}
      description={PAGE_TEXTS.storeCheckoutRequired.description}
    >
      <Link to="/" className="button">
        Browse Stores
      </Link>
    </MessageCard>
  ),
});
