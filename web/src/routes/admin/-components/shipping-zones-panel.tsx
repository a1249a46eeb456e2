// Tax and shipping by country: the store's zones (each a list of countries with its own tax rate
// and shipping methods) and whether its prices include the tax. Countries in no zone get the
// Settings above (the rest of the world). Validated by the shared schema, errors beside the field
// (a country in two zones under the list); saving needs the network.
import {
  FALLBACK_ZONE_NAME,
  formatTaxRate,
  resolveStoreSettings,
  SHIPPING_METHODS,
  SHIPPING_OPTIONS,
  ShippingZonesFormSchema,
  type ShippingZonesFormValues,
  STORE_SETTINGS_LIMITS,
  type StoredStoreSettings,
  shippingZonesFormValues,
  shippingZonesFromForm,
  zoneFormValues,
} from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import * as v from 'valibot';
import { cacheMerchantStore } from '../../../admin/cache.ts';
import { useAdminForm } from '../../../admin/components/fields.tsx';
import { formValidator } from '../../../admin/form-values.ts';
import { type MerchantStore, MerchantStoreSchema } from '../../../admin/types.ts';
import { ApiError, apiRequest, errorText, newIdempotencyKey } from '../../../lib/api.ts';
import { submitWith } from '../../../lib/form.tsx';
import { toast, toastError } from '../../../lib/toast.ts';

/** PUT /api/stores/{id} with the zones, on the version the merchant saw. */
async function saveZones(store: MerchantStore, values: ShippingZonesFormValues) {
  const body = {
    ...shippingZonesFromForm(v.parse(ShippingZonesFormSchema, values)),
    updatedAt: store.updatedAt,
  };
  const answer = await apiRequest('PUT', `/api/stores/${encodeURIComponent(store.id)}`, body, {
    idempotencyKey: newIdempotencyKey(),
  });
  return v.parse(MerchantStoreSchema, answer);
}

/** The form's own messages (a country in two zones, a name used twice): issues without a field. */
function formMessages(errors: readonly unknown[]): string[] {
  const messages = new Set<string>();
  for (const error of errors) {
    if (!error || typeof error !== 'object') continue;
    const root = (error as Record<string, unknown>)[''];
    if (Array.isArray(root))
      for (const issue of root) if (issue?.message) messages.add(String(issue.message));
  }
  return [...messages];
}

/** The zones editor of one of the merchant's stores. */
export function ShippingZonesPanel(props: { userId: string; store: MerchantStore }) {
  const stored = props.store as StoredStoreSettings;
  const restOfWorld = resolveStoreSettings(stored);
  const form = useAdminForm({
    defaultValues: shippingZonesFormValues(stored),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<ShippingZonesFormValues>(ShippingZonesFormSchema) },
    onSubmit: async ({ value }) => {
      try {
        const saved = await saveZones(props.store, value);
        await cacheMerchantStore(props.userId, saved);
        toast({
          title: 'Zones saved',
          description: 'Your checkout prices each country with its zone now.',
        });
      } catch (error) {
        const offline = !(error instanceof ApiError);
        toastError(
          'Failed to save zones',
          offline ? 'Saving needs a connection.' : errorText(error),
        );
      }
    },
  });
  const messages = useStore(form.store, (state) => formMessages(state.errors));

  return (
    <section className="card store-settings" aria-labelledby="zones-title">
      <h2 id="zones-title">Tax and shipping by country</h2>
      <p className="muted small">
        Each zone lists countries (two-letter codes such as DE, FR, US) with its own tax rate and
        shipping methods. Countries in no zone ({FALLBACK_ZONE_NAME}) get the rate and methods
        above: {formatTaxRate(restOfWorld.taxRateBps)} tax.
      </p>
      <form noValidate onSubmit={submitWith(form)} className="settings-form">
        <form.AppField name="pricesIncludeTax">
          {(field) => (
            <field.CheckboxField
              label="My prices include tax"
              hint="On: the checkout shows the tax inside the price. Off: it adds the tax to the total."
            />
          )}
        </form.AppField>
        <form.Field name="zones" mode="array">
          {(zones) => (
            <>
              {zones.state.value.map((_, i) => (
                <fieldset
                  // biome-ignore lint/suspicious/noArrayIndexKey: a zone's place is its identity here.
                  key={i}
                  className="shipping-settings zone-settings"
                  data-testid={`zone-${i}`}
                >
                  <legend>Zone {i + 1}</legend>
                  <div className="field-grid">
                    <form.AppField name={`zones[${i}].name`}>
                      {(field) => <field.InputField label="Zone name" placeholder="Germany" />}
                    </form.AppField>
                    <form.AppField name={`zones[${i}].countries`}>
                      {(field) => (
                        <field.InputField
                          label="Countries"
                          placeholder="DE, AT"
                          hint="Two-letter codes, separated by commas."
                        />
                      )}
                    </form.AppField>
                    <form.AppField name={`zones[${i}].taxPercent`}>
                      {(field) => (
                        <field.InputField
                          label="Tax rate (%)"
                          inputMode="decimal"
                          hint="0 for none."
                        />
                      )}
                    </form.AppField>
                  </div>
                  {SHIPPING_METHODS.map((method) => (
                    <div key={method} className="shipping-setting-row">
                      <form.AppField name={`zones[${i}].shipping.${method}.enabled`}>
                        {(field) => (
                          <field.CheckboxField label={`Offer ${SHIPPING_OPTIONS[method].label}`} />
                        )}
                      </form.AppField>
                      {method !== 'free' && (
                        <form.AppField name={`zones[${i}].shipping.${method}.priceUsdc`}>
                          {(field) => (
                            <field.InputField
                              label={`${SHIPPING_OPTIONS[method].label} price (USDC)`}
                              inputMode="decimal"
                            />
                          )}
                        </form.AppField>
                      )}
                      <form.AppField name={`zones[${i}].shipping.${method}.delivery`}>
                        {(field) => (
                          <field.InputField
                            label={`${SHIPPING_OPTIONS[method].label} delivery time`}
                          />
                        )}
                      </form.AppField>
                    </div>
                  ))}
                  <div className="actions actions-start">
                    <button
                      type="button"
                      className="button button-quiet"
                      onClick={() => zones.removeValue(i)}
                    >
                      Remove zone {i + 1}
                    </button>
                  </div>
                </fieldset>
              ))}
              {zones.state.value.length === 0 && (
                <p className="muted small">
                  No zones: every country gets the same tax rate and shipping methods.
                </p>
              )}
              {zones.state.value.length < STORE_SETTINGS_LIMITS.maxZones && (
                <div className="actions actions-start">
                  <button
                    type="button"
                    className="button button-quiet"
                    onClick={() =>
                      zones.pushValue(
                        zoneFormValues({
                          name: '',
                          countries: [],
                          taxRateBps: 0,
                          shipping: restOfWorld.shipping,
                        }),
                      )
                    }
                  >
                    Add zone
                  </button>
                </div>
              )}
            </>
          )}
        </form.Field>
        {messages.length > 0 && (
          <ul className="field-error" role="alert">
            {messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        )}
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(submitting) => (
            <div className="actions actions-start">
              <button type="submit" className="button" disabled={submitting}>
                {submitting ? 'Saving...' : 'Save Zones'}
              </button>
            </div>
          )}
        </form.Subscribe>
      </form>
    </section>
  );
}
