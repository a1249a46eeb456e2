// The universal checkout URL parameters as the docs table lists them
// (docs/rules.md#checkout-link-parameters).
import { DOCS_EXAMPLE_SHIPPING, SHIPPING_OPTIONS } from '@store/shared';

/** One row of the parameter table. */
export interface ParameterDoc {
  name: string;
  required: boolean;
  type: string;
  description: string;
}

/**
 * Every parameter; the table marks externalOrderId and webhookUrl as required too
 * (docs/screens.md#integration-docs).
 */
export const PARAMETERS: readonly ParameterDoc[] = [
  {
    name: 'storeName',
    required: true,
    type: 'text',
    description: 'Your store name, shown in the checkout header.',
  },
  {
    name: 'items',
    required: true,
    type: 'JSON array (URL-encoded)',
    description:
      'Items: [{"title":"…","priceUsdc":"10.00","quantity":1}]; priceUsdc is a string amount, quantity a number. Optional imageUrl.',
  },
  {
    name: 'paymentAddress',
    required: true,
    type: 'address',
    description: 'Your wallet on {network} (0x + 40 hex characters); receives 98% of each payment.',
  },
  {
    name: 'externalOrderId',
    required: true,
    type: 'text',
    description: 'Your own order id; sent back in the webhook.',
  },
  {
    name: 'webhookUrl',
    required: true,
    type: 'https URL',
    description: 'Where we POST the signed webhook when the order is paid.',
  },
  {
    name: 'returnUrl',
    required: false,
    type: 'URL',
    description:
      'Where the shopper goes after a confirmed payment, with orderId and status=success added.',
  },
  {
    name: 'theme',
    required: false,
    type: 'dark | light',
    description: 'Page theme (default dark).',
  },
  {
    name: 'primaryColor, secondaryColor, accentColor',
    required: false,
    type: 'hex colour',
    description: 'Brand colours, URL-encoded (%23 for #).',
  },
  {
    name: 'logoUrl',
    required: false,
    type: 'URL or emoji',
    description: 'Your logo in the header.',
  },
  {
    name: 'customerEmail, phone, firstName, lastName, street, city, state, zipCode',
    required: false,
    type: 'text',
    description:
      'Pre-fill the customer form (for a US address, state is a US state code, DC included; elsewhere the region and postal code are free text).',
  },
  {
    name: 'country',
    required: false,
    type: 'ISO 3166-1 alpha-2 code',
    description: 'Pre-select the country of the shipping address (e.g. DE). Default US.',
  },
  {
    name: 'shipping',
    required: false,
    type: 'boolean',
    description: 'Show the shipping method choice.',
  },
  {
    name: 'freeShipping',
    required: false,
    type: 'boolean',
    description: `Offer free shipping (${SHIPPING_OPTIONS.free.delivery}).`,
  },
  {
    name: 'standardShipping',
    required: false,
    type: 'number',
    description: `Price of standard shipping (${SHIPPING_OPTIONS.standard.delivery}), e.g. ${DOCS_EXAMPLE_SHIPPING.standard}.`,
  },
  {
    name: 'expressShipping',
    required: false,
    type: 'number',
    description: `Price of express shipping (${SHIPPING_OPTIONS.express.delivery}), e.g. ${DOCS_EXAMPLE_SHIPPING.express}.`,
  },
];
