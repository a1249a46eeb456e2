// The refund claim mail: the amount, why, the claim link and the exchange warning, every value
// escaped in the HTML part.
import { describe, expect, test } from 'bun:test';
import { renderRefundClaim } from './refund.ts';

const mail = {
  orderId: '6f1c2a4e-8b3d-4c5e-9f70-1a2b3c4d5e6f',
  to: 'ada@example.com',
  storeName: 'Tea & <Cakes>',
  primaryColor: '#10b981',
  replyTo: 'shop@example.com',
  amount: 2_500_000n,
  reason: 'excess',
  claimUrl: 'https://shop.example/refund/abc_DEF-123',
};

describe('renderRefundClaim', () => {
  test('says how much comes back and why, links the claim page and warns about exchanges', () => {
    const rendered = renderRefundClaim(mail);
    expect(rendered.to).toBe('ada@example.com');
    expect(rendered.replyTo).toBe('shop@example.com');
    expect(rendered.subject).toBe(
      '2.50 USDC to refund for your order #3c4d5e6f from Tea & <Cakes>',
    );
    expect(rendered.text).toContain('You sent more than the order total');
    expect(rendered.text).toContain(`Confirm where to send it: ${mail.claimUrl}`);
    expect(rendered.text).toContain('an exchange deposit address may not credit a refund');
    expect(rendered.html).toContain(`href="${mail.claimUrl}"`);
    expect(rendered.html).toContain('Tea &amp; &lt;Cakes&gt;');
    expect(rendered.html).not.toContain('<Cakes>');
  });

  test('an unknown reason reads as a refund by the store; a bad colour falls back', () => {
    const rendered = renderRefundClaim({ ...mail, reason: 'other', primaryColor: 'red;x' });
    expect(rendered.text).toContain('The store is refunding your order.');
    expect(rendered.html).not.toContain('red;x');
  });
});
