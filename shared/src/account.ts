// Merchant accounts: email, password rules, second factor.
export {};
