// The store's invoices and customer data (docs/rules.md#invoices, docs/rules.md#customer-data):
// the legal name, address and tax ID its invoices print, whether the receipt mail carries the
// invoice PDF, and how long orders keep their customer's personal data. Validated by the shared
// schema, errors beside the field; saving needs the network.
import {
  InvoiceSettingsFormSchema,
  type InvoiceSettingsFormValues,
  invoiceSettingsFormValues,
  invoiceSettingsFromForm,
  type StoredInvoiceSettings,
} from '@store/shared';
import { revalidateLogic } from '@tanstack/react-form';
import * as v from 'valibot';
import { cacheMerchantStore } from '../../../admin/cache.ts';
import { useAdminForm } from '../../../admin/components/fields.tsx';
import { formValidator } from '../../../admin/form-values.ts';
import { type MerchantStore, MerchantStoreSchema } from '../../../admin/types.ts';
import { ApiError, apiRequest, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { submitWith } from '../../../lib/form.tsx';
import { toast, toastError } from '../../../lib/toast.ts';

/** PUT /api/stores/{id} with the invoice settings, on the version the merchant saw. */
async function saveInvoiceSettings(store: MerchantStore, values: InvoiceSettingsFormValues) {
  const body = { ...invoiceSettingsFromForm(values), updatedAt: store.updatedAt };
  const answer = await apiRequest('PUT', `/api/stores/${encodeURIComponent(store.id)}`, body, {
    idempotencyKey: newIdempotencyKey(),
  });
  return v.parse(MerchantStoreSchema, answer);
}

/** The Invoices and customer data form of one of the merchant's stores. */
export function InvoiceSettingsPanel(props: { userId: string; store: MerchantStore }) {
  const form = useAdminForm({
    // Note: the settings ride along the store answer (MerchantStoreSchema keeps unknown keys).
    defaultValues: invoiceSettingsFormValues(props.store as StoredInvoiceSettings),
    validationLogic: revalidateLogic(),
    validators: {
      onDynamic: formValidator<InvoiceSettingsFormValues>(InvoiceSettingsFormSchema),
    },
    onSubmit: async ({ value }) => {
      try {
        const saved = await saveInvoiceSettings(props.store, value);
        await cacheMerchantStore(props.userId, saved);
        toast({ title: 'Invoice settings saved', description: 'New invoices print them.' });
      } catch (error) {
        const offline = !(error instanceof ApiError);
        toastError(
          'Failed to save invoice settings',
          offline ? 'Saving needs a connection.' : errorText(error),
        );
      }
    },
  });

  return (
    <section className="card store-settings" aria-labelledby="invoice-settings-title">
      <h2 id="invoice-settings-title">Invoices and customer data</h2>
      <p className="muted small">
        Each paid order gets an invoice numbered INV-000001, INV-000002 … in this store. It prints
        the details below as they are when it is downloaded.
      </p>
      <form noValidate onSubmit={submitWith(form)} className="settings-form">
        <div className="field-grid">
          <form.AppField name="legalName">
            {(field) => (
              <field.InputField
                label="Legal name"
                placeholder={props.store.name}
                hint="The seller on your invoices; empty: the store's name."
              />
            )}
          </form.AppField>
          <form.AppField name="taxId">
            {(field) => (
              <field.InputField label="Tax ID" hint="VAT number, EIN, ABN …; empty: none." />
            )}
          </form.AppField>
        </div>
        <form.AppField name="legalAddress">
          {(field) => (
            <field.TextAreaField
              label="Address"
              hint="Printed under the legal name, one line each."
            />
          )}
        </form.AppField>
        <form.AppField name="attachInvoiceToReceipt">
          {(field) => <field.CheckboxField label="Attach the invoice PDF to receipt emails" />}
        </form.AppField>
        <form.AppField name="retentionMonths">
          {(field) => (
            <field.InputField
              label="Keep customer data for (months)"
              inputMode="numeric"
              hint="Orders placed longer ago lose the customer's name, email, phone and address (their amounts stay). Empty: kept until you erase the customer."
            />
          )}
        </form.AppField>
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <div className="actions actions-start">
              <button type="submit" className="button" disabled={submitting}>
                {submitting ? 'Saving...' : 'Save Invoice Settings'}
              </button>
            </div>
          )}
        </form.Subscribe>
      </form>
    </section>
  );
}
