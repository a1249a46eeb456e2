// @store/shared: pure domain rules used by web and api.
export * from './address.ts';
export * from './chains.ts';
export * from './checkout-url.ts';
export * from './constants.ts';
export * from './limits.ts';
export * from './link-builder.ts';
export * from './messages.ts';
export * from './money.ts';
export * from './order-id.ts';
export * from './payment-state.ts';
export * from './quantity.ts';
export * from './result.ts';
export * from './schemas.ts';
export * from './slug.ts';
export * from './status.ts';
export * from './totals.ts';
export * from './us-states.ts';
