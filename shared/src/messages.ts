// User-facing texts, listed in docs/messages.md; tests compare them byte-for-byte.
// Note: apostrophes are straight ASCII ("doesn't"); keep them straight.

/** Store form validation messages (docs/messages.md#store-form). */
export const STORE_FORM_MESSAGES = {
  nameRequired: 'Store name is required', // same text as the link builder's
  slugRequired: 'Store slug is required',
  slugFormat: 'Slug can only contain lowercase letters, numbers, and hyphens',
  paymentAddress: 'Must be a valid Ethereum address (0x followed by 40 hexadecimal characters)',
  hexColor: 'Must be a valid hex color',
  theme: 'Theme must be light or dark',
  ownerRequired: 'Owner is required',
} as const;

/**
 * Payout addresses that could never receive a forwarded payment
 * (docs/messages.md#payout-addresses).
 */
export const PAYOUT_ADDRESS_MESSAGES = {
  zero: 'The zero address cannot receive payouts: USDC sent there is lost',
  token: 'The USDC contract cannot receive payouts: USDC sent there is lost',
  platform: 'An account of this platform (treasury or relayer) cannot be a payout address',
  deposit: 'A deposit address of this platform cannot be a payout address',
} as const;

/** Product form validation messages (docs/messages.md#product-form). */
export const PRODUCT_FORM_MESSAGES = {
  priceRequired: 'Price is required',
  pricePositive: 'Price must be a positive number',
  pricePrecision: 'Price can have at most 8 digits before and 2 after the decimal point',
  titleRequired: 'Title is required',
  storeIdRequired: 'Store is required',
  inventory: 'Inventory must be a whole number of 0 or more',
  priceAboveCap: "The price is above this product's price cap",
  capPositive: 'Price cap must be a positive number',
  capPrecision: 'Price cap can have at most 8 digits before and 2 after the decimal point',
} as const;

/** Merchant account form messages: sign-up and sign-in (docs/messages.md#merchant-accounts). */
export const ACCOUNT_MESSAGES = {
  usernameRequired: 'Username is required',
  usernameFormat:
    'Username must be 3 to 32 characters: lowercase letters, numbers, hyphens or underscores',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 200 characters',
  usernameTaken: 'That username is already taken',
  invalidCredentials: 'Invalid username or password',
  signInRequired: 'Sign in to continue',
} as const;

/** Store checkout and universal customer form messages (docs/messages.md#customer-form). */
export const CUSTOMER_FORM_MESSAGES = {
  email: 'Invalid email address',
  phone: 'Phone number is required',
  firstName: 'First name is required',
  lastName: 'Last name is required',
  street: 'Street address is required',
  city: 'City is required',
  state: 'State is required',
  stateUnknown: 'State must be a US state code',
  zipCode: 'ZIP code is required',
  country: 'Choose a country from the list',
  postalCode: 'Postal code can only contain letters, numbers, spaces and hyphens',
  shippingMethod: 'Shipping method must be free, standard or express',
} as const;

/** Store checkout pre-submit toasts (docs/messages.md#store-checkout). */
export const CHECKOUT_MESSAGES = {
  cartEmpty: 'Cart is empty',
  calculationError: {
    title: 'Calculation Error',
    description: 'Unable to calculate order total. Please refresh and try again.',
  },
  storeError: {
    title: 'Store Error',
    description: 'Unable to identify store. Please refresh and try again.',
  },
} as const;

/**
 * Universal checkout URL errors (docs/messages.md#checkout-link-errors), in the order they are
 * checked.
 */
export const CHECKOUT_URL_MESSAGES = {
  missingParams: 'Missing required parameters: storeName, items, and paymentAddress are required',
  invalidItems: 'Invalid items format. Items must be valid JSON array.',
  invalidPaymentAddress: 'Invalid payment address format. Must be a valid Ethereum address.',
  parseFailed: 'Failed to parse checkout parameters',
} as const;

/**
 * Payment link builder messages (docs/messages.md#link-builder), validation in the order checked.
 */
export const LINK_BUILDER_MESSAGES = {
  errorTitle: 'Error',
  storeNameRequired: 'Store name is required',
  paymentAddressRequired: 'Payment address is required',
  externalOrderIdRequired: 'External order ID is required',
  webhookUrlRequired: 'Webhook URL is required',
  itemRequired: 'At least one complete item is required',
  copyFailed: 'Failed to copy link',
} as const;

/**
 * The link builder's checks of what it builds, after the required fields
 * (docs/messages.md#link-builder-checks).
 */
export const LINK_BUILDER_CHECK_MESSAGES = {
  addressChecksum:
    'This address has mixed-case letters that fail its checksum: a character may be mistyped',
  webhookUrlFormat: 'Webhook URL must be a full URL such as https://shop.example.com/webhooks',
  webhookUrlHttps: 'Webhook URL must start with https:// (http is only allowed for localhost)',
  quantity: 'Quantity must be a whole number of at least 1',
  imageUrl: 'Image URL must be an http(s) URL',
  shippingPrice: 'Shipping price must be a number of at least 0 with at most 2 decimals',
  returnUrl: 'Return URL must be an http(s) URL',
  logoUrl: 'Logo must be an http(s) URL or an emoji',
} as const;

/** Texts of 'Send test webhook' (the API's refusals, which the admin shows before asking). */
export const WEBHOOK_TEST_MESSAGES = {
  noUrl: 'Save a webhook URL first: the test is sent there',
  tooMany: 'Too many test webhooks for this store',
} as const;

/** Failure toasts and errors of the payment flow (docs/messages.md#payment-flow). */
export const PAYMENT_MESSAGES = {
  walletGenerationFailed: {
    title: 'Payment Error',
    description: 'Failed to generate payment wallet. Please try again.',
  },
  assignWalletFailed: 'Failed to assign payment wallet to existing order',
  universalWalletFailed: 'Failed to create universal wallet payment',
  checkStatusFailed: 'Failed to check payment status',
  checkStatusToast: {
    title: 'Unable to check payment status',
    description: 'Please try again in a moment',
  },
  notDetected: {
    title: 'Payment not detected yet',
    description: "Please ensure you've sent the exact amount to the correct address",
  },
  missingOrderId: 'Failed to get order ID for payment',
  storeConfigMissing: 'Store configuration not available',
  failedCard: {
    title: 'Payment Failed',
    description: 'The payment could not be processed or has expired.',
  },
  // a manual check that finds part of the amount ("not detected yet" would mislead)
  partlyReceived: (received: string, expected: string, remaining: string) => ({
    title: 'Part of the payment arrived',
    description: `Received ${received} of ${expected} USDC. Send the remaining ${remaining} USDC to the same address.`,
  }),
  // a payment a chain reorganisation removed after it had counted
  reversedCard: {
    title: 'Payment Reversed',
    description:
      'The network reversed the transaction that paid this order, so the payment no longer exists. If you still hold the USDC, send the amount again to the same address; the store has been told.',
  },
} as const;

/**
 * Failure toasts of the admin and checkout mutations (docs/messages.md#failure-toasts); the server
 * message goes in the description.
 */
export const FAILURE_TOASTS = {
  createStore: 'Failed to create store',
  updateStore: 'Failed to update store',
  addProduct: 'Failed to add product',
  createOrder: 'Failed to create order',
} as const;

/** Success toasts (docs/messages.md#success-toasts). */
export const SUCCESS_TOASTS = {
  storeCreated: {
    title: 'Store created successfully',
    description: 'Your new store is ready for products!',
  },
  storeUpdated: { title: 'Store updated successfully' },
  productAdded: { title: 'Product added successfully' },
  addedToCart: { title: 'Added to cart' },
  orderCreated: { title: 'Order created successfully', description: 'Redirecting to payment...' },
  cartCleared: { title: 'Cart cleared' },
} as const;

/** Not-found texts of the order pages (docs/messages.md#order-not-found). */
export const ORDER_NOT_FOUND = {
  title: 'Order Not Found',
  description: "The order you're looking for doesn't exist.",
  universalDescription: "The order you're looking for doesn't exist or has expired.",
  thankYouDescription: "The order you're looking for doesn't exist or may have expired.",
} as const;

/** Page, empty-state and loading texts (docs/messages.md#page-texts). */
export const PAGE_TEXTS = {
  notFound: '404 Page Not Found',
  productNotFound: {
    title: 'Product Not Found',
    description: "The product you're looking for doesn't exist.",
  },
  noSearchResults: {
    title: 'No products match your search',
    description: 'Try adjusting your search terms.',
  },
  noProducts: {
    title: 'No products available',
    description: "This store doesn't have any products yet.",
  },
  storeCheckoutRequired: {
    title: 'Store-specific checkout required',
    description: 'Please access checkout through a specific store.',
  },
  emptyCart: { title: 'Your cart is empty', description: 'Add some products before checking out.' },
  noStores: 'No stores yet',
  noOrders: 'No orders yet. Orders will appear here once customers start purchasing!',
  loadingAdmin: 'Loading admin dashboard...',
  loadingProduct: 'Loading product...',
  searchPlaceholder: 'Search products...',
  checkoutError: 'Checkout Error',
  creatingOrder: 'Creating Order...',
  pollNote: 'updates as payments arrive',
  paymentMethod: 'USDC (Cryptocurrency)',
  orderConfirmed: 'Confirmed',
} as const;

/** A store's team: roles, members and invitations (docs/messages.md#team). */
export const TEAM_MESSAGES = {
  /** A member whose role does not allow what the request asks (403). */
  forbidden: "Your role in this store doesn't allow this",
  /** A staff member's refund above their limit (403). */
  refundAboveLimit: 'This refund is above your refund limit in this store',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  /** The owner is the store's one owner: not removed, not demoted, not a second one. */
  ownerFixed: "The store's owner cannot be removed or given another role",
  alreadyMember: 'This person is already a member of the store',
  alreadyInvited: 'This email has a pending invitation to the store already',
  /** An invitation link used, revoked, expired or unknown. */
  invitationInvalid: 'This invitation link is invalid, used, revoked or expired',
  /** The signed-in account's email is not the invited one. */
  wrongAccount:
    'This invitation is for another email address: sign in with the account of that address, or sign up with it',
  /** An API key's role above its member's, or for a store they are not a member of. */
  keyRoleTooHigh: "An API key's role cannot be above your role in its store",
  roleRequired: 'Role is admin, staff or viewer',
  /** A team change tried with an API key. */
  sessionRequired:
    "A store's team can only be changed from a signed-in session, not with an API key",
} as const;
