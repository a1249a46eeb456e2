// Which orders get their receipt by email: store and checkout-session orders, and universal orders
// of a signed link. Note: an unsigned universal link is made by anyone with any store name, text
// and email address; emailing it would let strangers mail their words to anyone for a cent.
import type { OrderMetadata } from './schemas.ts';

/** Whether an order's receipt is emailed (when the platform has a mail server at all). */
export function receiptIsEmailed(metadata: OrderMetadata | null | undefined): boolean {
  return !metadata?.isUniversal || metadata.signed === true;
}
