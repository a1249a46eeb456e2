// The order every payment benchmark pays: a 1.25 USDC universal order with its deposit address.
import type { Address } from 'viem';

/** Price of the benchmark order. */
export const BENCH_ORDER_TOTAL = '1.25';

/** Creates a universal order and its wallet in one call (the payment page's form). */
export async function createBenchOrder(
  apiUrl: string,
  options: { storePaymentAddress: Address; webhookUrl?: string },
): Promise<{ orderId: string; address: Address }> {
  const total = BENCH_ORDER_TOTAL;
  const response = await fetch(`${apiUrl}/api/universal-orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      storeName: 'Bench Shop',
      storePaymentAddress: options.storePaymentAddress,
      webhookUrl: options.webhookUrl,
      customerEmail: 'bench@example.com',
      shippingAddress: {
        firstName: 'B',
        lastName: 'Ench',
        email: 'bench@example.com',
        phone: '1',
        street: '1 Main St',
        city: 'Springfield',
        state: 'IL',
        zipCode: '62701',
      },
      items: [{ productId: 'universal-bench', title: 'Item', priceUsdc: total, quantity: 1 }],
      subtotalUsdc: total,
      shippingUsdc: '0.00',
      totalUsdc: total,
      paymentChain: 'base',
    }),
  });
  const body = (await response.json()) as {
    order: { id: string };
    paymentWallet: { address: Address };
  };
  if (response.status !== 201) throw new Error(`order: ${JSON.stringify(body)}`);
  return { orderId: body.order.id, address: body.paymentWallet.address };
}
