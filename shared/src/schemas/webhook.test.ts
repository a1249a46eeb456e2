import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_EXAMPLES,
  WEBHOOK_PAYLOAD_SCHEMAS,
  WebhookPayloadSchema,
} from './webhook.ts';

describe('webhook payloads', () => {
  it('has one schema and one valid example per event type', () => {
    expect(Object.keys(WEBHOOK_PAYLOAD_SCHEMAS).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const example = WEBHOOK_EXAMPLES[type];
      expect(v.safeParse(WEBHOOK_PAYLOAD_SCHEMAS[type], example).issues, type).toBeUndefined();
      expect(v.parse(WebhookPayloadSchema, example).type).toBe(type);
    }
  });

  it('keeps the documented fields and refuses a payload of another type or version', () => {
    const paid = WEBHOOK_EXAMPLES['order.paid'];
    for (const field of ['orderId', 'externalOrderId', 'status', 'paymentTxHash', 'completedAt'])
      expect(paid).toHaveProperty(field);
    expect(paid.paymentWallet).toHaveProperty('receivedAmount');
    const schema = WEBHOOK_PAYLOAD_SCHEMAS['order.paid'];
    expect(v.is(schema, { ...paid, type: 'order.expired' })).toBe(false);
    expect(v.is(schema, { ...paid, version: 1 })).toBe(false);
    expect(
      v.is(WEBHOOK_PAYLOAD_SCHEMAS['order.forwarded'], { ...paid, type: 'order.forwarded' }),
    ).toBe(false);
  });
});
