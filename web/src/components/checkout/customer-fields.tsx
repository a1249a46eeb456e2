// The customer and shipping-address fields both checkouts share (SPEC §2, §5), in form order.
import { US_STATES } from '@store/shared';

/** A text field of the customer form. */
export interface CustomerFieldSpec {
  name: 'customerEmail' | 'phone' | 'firstName' | 'lastName' | 'street' | 'city' | 'zipCode';
  label: string;
  type?: 'email' | 'tel';
  autoComplete: string;
}

/** Customer Information section. */
export const CONTACT_FIELDS: readonly CustomerFieldSpec[] = [
  { name: 'customerEmail', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'phone', label: 'Phone', type: 'tel', autoComplete: 'tel' },
];

/** Shipping Address section, without the state select (placed between city and ZIP). */
export const NAME_FIELDS: readonly CustomerFieldSpec[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name' },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name' },
  { name: 'street', label: 'Street address', autoComplete: 'address-line1' },
  { name: 'city', label: 'City', autoComplete: 'address-level2' },
];

/** ZIP code field. */
export const ZIP_FIELD: CustomerFieldSpec = {
  name: 'zipCode',
  label: 'ZIP code',
  autoComplete: 'postal-code',
};

/** The 50 states and DC for the state select. */
export const STATE_OPTIONS = US_STATES.map((state) => ({ value: state.code, label: state.name }));

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
