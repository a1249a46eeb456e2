// The customer and shipping-address fields both checkouts share (SPEC §2, §5), in form order, and
// their two sections as one TanStack Form field group.
import { US_STATES } from '@store/shared';
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
  state: string;
  zipCode: string;
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
            {NAME_FIELDS.map(textField)}
            <group.AppField name="state">
              {(field) => (
                <field.SelectField
                  label="State"
                  placeholder="Select a state"
                  options={STATE_OPTIONS}
                  autoComplete="address-level1"
                />
              )}
            </group.AppField>
            {textField(ZIP_FIELD)}
          </div>
        </section>
      </>
    );
  },
});
