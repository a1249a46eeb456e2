// The store's Settings: tax rate, the shipping methods offered (each on or off, its price and
// delivery text), shipping time and return policy, as the storefront, its checkout and the API's
// pricing use them. Validated by the shared schema, errors beside the field; saving needs the network.
import {
  SHIPPING_METHODS,
  SHIPPING_OPTIONS,
  type StoredStoreSettings,
  StoreSettingsFormSchema,
  type StoreSettingsFormValues,
  settingsFormValues,
  settingsFromForm,
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

/** PUT /api/stores/{id} with the settings, on the version the merchant saw. */
async function saveSettings(store: MerchantStore, values: StoreSettingsFormValues) {
  const body = {
    ...settingsFromForm(v.parse(StoreSettingsFormSchema, values)),
    updatedAt: store.updatedAt,
  };
  const answer = await apiRequest('PUT', `/api/stores/${encodeURIComponent(store.id)}`, body, {
    idempotencyKey: newIdempotencyKey(),
  });
  return v.parse(MerchantStoreSchema, answer);
}

/** The Settings form of one of the merchant's stores. */
export function StoreSettingsPanel(props: { userId: string; store: MerchantStore }) {
  const form = useAdminForm({
    // Note: the settings ride along the store answer (MerchantStoreSchema keeps unknown keys).
    defaultValues: settingsFormValues(props.store as StoredStoreSettings),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<StoreSettingsFormValues>(StoreSettingsFormSchema) },
    onSubmit: async ({ value }) => {
      try {
        const saved = await saveSettings(props.store, value);
        await cacheMerchantStore(props.userId, saved);
        toast({
          title: 'Settings saved',
          description: 'Your storefront and checkout use them now.',
        });
      } catch (error) {
        const offline = !(error instanceof ApiError);
        toastError(
          'Failed to save settings',
          offline ? 'Saving needs a connection.' : errorText(error),
        );
      }
    },
  });

  return (
    <section className="card store-settings" aria-labelledby="store-settings-title">
      <h2 id="store-settings-title">Settings</h2>
      <p className="muted small">
        Shown on your product pages and used by your checkout. Shoppers see only what you set here.
      </p>
      <form noValidate onSubmit={submitWith(form)} className="settings-form">
        <div className="field-grid">
          <form.AppField name="taxPercent">
            {(field) => (
              <field.InputField
                label="Tax rate (%)"
                inputMode="decimal"
                hint="Charged at checkout on orders to countries in no zone below; 0 for none."
              />
            )}
          </form.AppField>
          <form.AppField name="returnDays">
            {(field) => (
              <field.InputField
                label="Returns accepted within (days)"
                inputMode="numeric"
                hint="0 means you do not accept returns."
              />
            )}
          </form.AppField>
          <form.AppField name="shippingTime">
            {(field) => (
              <field.InputField
                label="Shipping time"
                placeholder="2-7 days"
                hint="Shown on the product page."
              />
            )}
          </form.AppField>
        </div>
        <fieldset className="shipping-settings">
          <legend>Shipping methods</legend>
          {SHIPPING_METHODS.map((method) => (
            <div key={method} className="shipping-setting-row" data-testid={`shipping-${method}`}>
              <form.AppField name={`shipping.${method}.enabled`}>
                {(field) => (
                  <field.CheckboxField label={`Offer ${SHIPPING_OPTIONS[method].label}`} />
                )}
              </form.AppField>
              {method !== 'free' && (
                <form.AppField name={`shipping.${method}.priceUsdc`}>
                  {(field) => (
                    <field.InputField
                      label={`${SHIPPING_OPTIONS[method].label} price (USDC)`}
                      inputMode="decimal"
                    />
                  )}
                </form.AppField>
              )}
              <form.AppField name={`shipping.${method}.delivery`}>
                {(field) => (
                  <field.InputField label={`${SHIPPING_OPTIONS[method].label} delivery time`} />
                )}
              </form.AppField>
            </div>
          ))}
        </fieldset>
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <div className="actions actions-start">
              <button type="submit" className="button" disabled={submitting}>
                {submitting ? 'Saving...' : 'Save Settings'}
              </button>
            </div>
          )}
        </form.Subscribe>
      </form>
    </section>
  );
}
