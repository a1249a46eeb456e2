// The customer and shipping-address fields both checkouts share (docs/rules.md#customer-details),
// in form order, and their two sections as one TanStack Form field group. The address starts with
// its country: a US address has the state select and ZIP code, one elsewhere a free-text region and
// postal code.
import { countryOptions, DEFAULT_COUNTRY, isCountryCode, US_STATES } from '@store/shared';
import { useStore } from '@tanstack/react-form';
import { withFieldGroup } from '../../lib/form.tsx';

/** A text field of the customer form. */
interface CustomerFieldSpec {
  name: 'customerEmail' | 'phone' | 'firstName' | 'lastName' | 'street' | 'city' | 'zipCode';
  label: string;
  type?: 'email' | 'tel';
  autoComplete: string;
}

/** Customer Information section. */
const CONTACT_FIELDS: readonly CustomerFieldSpec[] = [
  { name: 'customerEmail', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
];

/** Shipping Address section, without the state select (placed between city and ZIP). */
const NAME_FIELDS: readonly CustomerFieldSpec[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'street', label: 'Street address', autoComplete: 'address-line1' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
];

/** ZIP code field. */
const ZIP_FIELD: CustomerFieldSpec = {
  name: 'zipCode',
  label: 'ZIP code',
  autoComplete: 'postal-code',
};

/** The same field for an address outside the United States. */
const POSTAL_CODE_FIELD: CustomerFieldSpec = {
  name: 'zipCode',
  label: 'Postal code',
  autoComplete: 'postal-code',
};

/** Every country, the United States first, named in English. */
const COUNTRY_OPTIONS = countryOptions();

/** The 50 states and DC for the state select. */
const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }));

/** Values of both checkout forms. */
export interface CustomerFormValues {
  customerEmail: string;
  phone: string;
  firstName: string;
  lastName: string;
  street: string;
  city: string;
  country: string;
  state: string;
  zipCode: string;
}

/** A known country code (any case), or the default: a link may name one outside the list. */
function countryOf(code: string | undefined): string {
  const upper = code?.trim().toUpperCase() ?? '';
  return isCountryCode(upper) ? upper : DEFAULT_COUNTRY;
}

/** Empty values, overlaid with what is known (a saved address or the link's pre-fill). */
export function customerDefaults(
  known: Partial<Record<keyof CustomerFormValues | 'email', string | undefined>> = {},
): CustomerFormValues {
  return {
    customerEmail: known.customerEmail ?? known.email ?? '',
    phone: known.phone ?? '',
    firstName: known.firstName ?? '',
    lastName: known.lastName ?? '',
    street: known.street ?? '',
    city: known.city ?? '',
    country: countryOf(known.country),
    state: known.state ?? '',
    zipCode: known.zipCode ?? '',
  };
}

/** The field map of a form that holds the customer values at its top level. */
export const CUSTOMER_FIELD_NAMES = Object.fromEntries(
  Object.keys(customerDefaults()).map((name) => [name, name]),
) as { [K in keyof CustomerFormValues]: K };

/** The Customer Information and Shipping Address sections of a checkout form. */
export const CustomerSections = withFieldGroup({
  // Note: the checkout schemas' input types hold optional strings, so the group's must too.
  defaultValues: customerDefaults() as Partial<CustomerFormValues>,
  render: function CustomerSections({ group }) {
    const isUs = useStore(group.store, (state) => state.values.country) === DEFAULT_COUNTRY;
    const textField = (spec: CustomerFieldSpec) => (
      <group.AppField key={spec.name} name={spec.name}>
        {(field) => (
          <field.InputField label={spec.label} type={spec.type} autoComplete={spec.autoComplete} />
        )}
      </group.AppField>
    );
    return (
      <>
        <section className="card" aria-labelledby="customer-title">
          <h2 id="customer-title">Customer Information</h2>
          <div className="field-grid">{CONTACT_FIELDS.map(textField)}</div>
        </section>
        <section className="card" aria-labelledby="address-title">
          <h2 id="address-title">Shipping Address</h2>
          <div className="field-grid">
            <div className="field-row">
              <group.AppField
                name="country"
                listeners={{
                  // Note: a region does not carry over to another country (nor a US state code to a
                  // free-text region): a new country starts with an empty state.
                  onChange: () => group.setFieldValue('state', ''),
                }}
              >
                {(field) => (
                  <field.SelectField
                    label="Country"
                    options={COUNTRY_OPTIONS}
                    autoComplete="country"
                  />
                )}
              </group.AppField>
            </div>
            {NAME_FIELDS.map(textField)}
            {isUs ? (
              <group.AppField key="us-state" name="state">
                {(field) => (
                  <field.SelectField
                    label="State"
                    placeholder="Select a state"
                    options={STATE_OPTIONS}
                    autoComplete="address-level1"
                  />
                )}
              </group.AppField>
            ) : (
              <group.AppField key="region" name="state">
                {(field) => (
                  <field.InputField
                    label="State / Province / Region"
                    autoComplete="address-level1"
                  />
                )}
              </group.AppField>
            )}
            {textField(isUs ? ZIP_FIELD : POSTAL_CODE_FIELD)}
          </div>
        </section>
      </>
    );
  },
});
