// Which orders get their receipt by email: store and checkout-session orders, and universal orders
// of a signed link. Note: an unsigned universal link is made by anyone with any store name, text
// and email address; emailing it would let strangers mail their words to anyone for a cent.
import type { OrderSource } from './status.ts';

/** Whether an order's receipt is emailed (when the platform has a mail server at all). */
export function receiptIsEmailed(source: OrderSource): boolean {
  return source !== 'unsigned_link';
}
