// Product reviews by verified buyers.
export {};
