// Invoices and customer data (docs/rules.md#invoices, docs/rules.md#customer-data): the store's
// legal details printed on its invoices, whether the receipt carries the invoice, how long orders
// keep their customer's personal data; the invoice number's text and the erasure's answer.
import * as v from 'valibot';
import { maxChars } from './limits.ts';

/** Limits of the invoice and customer data settings. */
export const INVOICE_SETTINGS_LIMITS = {
  /** The seller's legal name. */
  legalName: 200,
  /** The seller's postal address, lines included. */
  legalAddress: 500,
  /** Lines of the postal address. */
  legalAddressLines: 6,
  /** A VAT number, EIN, ABN … */
  taxId: 60,
  /** Shortest and longest customer data retention, in months. */
  minRetentionMonths: 1,
  maxRetentionMonths: 120,
} as const;
const L = INVOICE_SETTINGS_LIMITS;

/** Messages of the invoice and customer data settings. */
export const INVOICE_SETTINGS_MESSAGES = {
  addressLines: `Address must be at most ${L.legalAddressLines} lines`,
  taxId: 'Tax ID may hold letters, digits, spaces and - . / only',
  retention: `Keep customer data for a whole number of months from ${L.minRetentionMonths} to ${L.maxRetentionMonths}, or leave it empty to keep it until you erase it`,
} as const;
const M = INVOICE_SETTINGS_MESSAGES;

/** Optional text, trimmed; empty becomes null (none). */
const optionalText = (label: string, max: number) =>
  v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      maxChars(label, max),
      v.transform((s) => (s === '' ? null : s)),
    ),
  );

/** The invoice and customer data fields of the store form (PUT /api/stores/{id}). */
export const InvoiceSettingsEntries = {
  legalName: optionalText('Legal name', L.legalName),
  legalAddress: v.nullable(
    v.pipe(
      v.string(),
      v.transform((s) =>
        s
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== '')
          .join('\n'),
      ),
      maxChars('Address', L.legalAddress),
      v.check((s) => s.split('\n').length <= L.legalAddressLines, M.addressLines),
      v.transform((s) => (s === '' ? null : s)),
    ),
  ),
  taxId: v.nullable(
    v.pipe(
      v.string(),
      v.trim(),
      maxChars('Tax ID', L.taxId),
      v.regex(/^[\p{L}\p{N} ./-]*$/u, M.taxId),
      v.transform((s) => (s === '' ? null : s)),
    ),
  ),
  attachInvoiceToReceipt: v.boolean('attachInvoiceToReceipt must be true or false'),
  customerRetentionMonths: v.nullable(
    v.pipe(
      v.number(M.retention),
      v.integer(M.retention),
      v.minValue(L.minRetentionMonths, M.retention),
      v.maxValue(L.maxRetentionMonths, M.retention),
    ),
  ),
};

/** The invoice settings as the store's owner reads them. */
export const InvoiceSettingsResponseEntries = {
  legalName: v.nullable(v.string()),
  legalAddress: v.nullable(v.string()),
  taxId: v.nullable(v.string()),
  attachInvoiceToReceipt: v.boolean(),
  customerRetentionMonths: v.nullable(v.number()),
};

/** The admin form's values (text fields; an empty retention keeps the data until erased). */
export const InvoiceSettingsFormSchema = v.object({
  legalName: v.pipe(v.string(), v.trim(), maxChars('Legal name', L.legalName)),
  legalAddress: InvoiceSettingsEntries.legalAddress.wrapped,
  taxId: InvoiceSettingsEntries.taxId.wrapped,
  attachInvoiceToReceipt: v.boolean(),
  retentionMonths: v.pipe(
    v.string(),
    v.trim(),
    v.check((s) => {
      if (s === '') return true;
      if (!/^\d{1,3}$/.test(s)) return false;
      const n = Number(s);
      return n >= L.minRetentionMonths && n <= L.maxRetentionMonths;
    }, M.retention),
  ),
});
/** The invoice settings form's values. */
export type InvoiceSettingsFormValues = v.InferInput<typeof InvoiceSettingsFormSchema>;

/** What a store record carries of these settings (any may be missing in an old cached copy). */
export interface StoredInvoiceSettings {
  legalName?: string | null;
  legalAddress?: string | null;
  taxId?: string | null;
  attachInvoiceToReceipt?: boolean;
  customerRetentionMonths?: number | null;
}

/** The form's values for a store. */
export function invoiceSettingsFormValues(store: StoredInvoiceSettings): InvoiceSettingsFormValues {
  return {
    legalName: store.legalName ?? '',
    legalAddress: store.legalAddress ?? '',
    taxId: store.taxId ?? '',
    attachInvoiceToReceipt: store.attachInvoiceToReceipt ?? false,
    retentionMonths:
      store.customerRetentionMonths == null ? '' : String(store.customerRetentionMonths),
  };
}

/** The PUT body of validated form values. */
export function invoiceSettingsFromForm(form: InvoiceSettingsFormValues) {
  const parsed = v.parse(InvoiceSettingsFormSchema, form);
  return {
    legalName: parsed.legalName === '' ? null : parsed.legalName,
    legalAddress: parsed.legalAddress,
    taxId: parsed.taxId,
    attachInvoiceToReceipt: parsed.attachInvoiceToReceipt,
    customerRetentionMonths: parsed.retentionMonths === '' ? null : Number(parsed.retentionMonths),
  };
}

/** An invoice number as printed: `INV-` and at least 6 digits (INV-000042). */
export function formatInvoiceNumber(number: number): string {
  return `INV-${String(number).padStart(6, '0')}`;
}

/** The file name of an order's invoice PDF. */
export function invoiceFileName(number: number): string {
  return `invoice-${formatInvoiceNumber(number)}.pdf`;
}

/** Longest email of an erasure request. */
export const CUSTOMER_ERASURE_LIMITS = { email: 254 } as const;

/** Body of POST /api/stores/{id}/customers/erase: the customer's email (any case). */
export const CustomerErasureBodySchema = v.object({
  email: v.pipe(
    v.string('email is required'),
    v.trim(),
    v.nonEmpty('email is required'),
    maxChars('Email', CUSTOMER_ERASURE_LIMITS.email),
  ),
});

/** Answer of the erasure: how many orders lost the person (0: none had this email). */
export const CustomerErasureSchema = v.object({
  erasedOrders: v.pipe(v.number(), v.integer(), v.minValue(0)),
  erasedAt: v.pipe(v.string(), v.isoTimestamp()),
});
/** An erasure's answer. */
export type CustomerErasure = v.InferOutput<typeof CustomerErasureSchema>;
