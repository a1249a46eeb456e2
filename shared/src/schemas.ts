// Valibot schemas and inferred types of every entity (docs/data.md) and request body (docs/api.md).

export * from './schemas/api-key.ts';
export * from './schemas/cart.ts';
export * from './schemas/checkout-session.ts';
export * from './schemas/common.ts';
export * from './schemas/order.ts';
export * from './schemas/payment.ts';
export * from './schemas/product.ts';
export * from './schemas/refund.ts';
export * from './schemas/responses.ts';
export * from './schemas/store.ts';
export * from './schemas/team.ts';
export * from './schemas/universal.ts';
export * from './schemas/user.ts';
export * from './schemas/webhook.ts';
