// Fulfilment of paid orders: carrier and tracking.
export {};
