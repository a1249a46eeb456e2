import { describe, expect, test } from 'bun:test';
import { arrivedText } from './activity.ts';

describe('the timeline says what arrived', () => {
  test('an underpaid payment seen before its depth: what was seen, not 0 received', () => {
    const underpaid = { toStatus: 'underpaid', receivedAmountUsdc: '0.000000' };
    expect(arrivedText(underpaid, { detectedAmountUsdc: '20.000000' })).toBe(
      '20.000000 USDC seen, waiting for confirmations',
    );
  });

  test('part confirmed, part still confirming; all confirmed', () => {
    const event = { toStatus: 'underpaid', receivedAmountUsdc: '5.000000' };
    expect(arrivedText(event, { detectedAmountUsdc: '20.000000' })).toBe(
      '20.000000 USDC seen, 5.000000 USDC of it confirmed',
    );
    const paid = { toStatus: 'received', receivedAmountUsdc: '27.000000' };
    expect(arrivedText(paid, { detectedAmountUsdc: '27.000000' })).toBe('27.000000 USDC received');
    expect(arrivedText(paid, {})).toBe('27.000000 USDC received');
  });
});
