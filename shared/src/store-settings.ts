// Store settings shown on the storefront and used by its checkout: tax rate, shipping methods, shipping time, return policy.
export {};
