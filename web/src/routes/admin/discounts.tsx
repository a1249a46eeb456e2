// Route /admin/discounts: a store's discount codes (GET /api/stores/{id}/discounts) with what each
// takes off, its minimum, products, expiry and limits, and how it was used (uses counted against the
// limits, paid orders, what it took off them and what they paid); "New code" and "Edit" open the
// code's form (TanStack Form with the shared rules), "Deactivate" and "Activate" switch it. Read
// from the network.
import { DISCOUNT_HOLD_MINUTES, type Discount, describeDiscount } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { createFileRoute } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useEffect, useState } from 'react';
import * as v from 'valibot';
import { fetchStoreProducts } from '../../admin/api.ts';
import { useAdminForm } from '../../admin/components/fields.tsx';
import { Modal, ModalFormActions } from '../../admin/components/modal.tsx';
import {
  DiscountFormSchema,
  type DiscountFormValues,
  discountBody,
  discountFormDefaults,
  fetchDiscounts,
  saveDiscount,
} from '../../admin/discounts-api.ts';
import { formValidator } from '../../admin/form-values.ts';
import { may } from '../../admin/permissions.ts';
import type { MerchantProduct } from '../../admin/types.ts';
import { useStoreLoad } from '../../admin/use-store-load.ts';
import { errorText } from '../../lib/api.ts';
import { submitWith } from '../../lib/form.tsx';
import { usdc } from '../../lib/format.ts';
import { toast, toastError } from '../../lib/toast.ts';
import '../../admin/table-cards.css';

const SearchSchema = v.object({
  storeId: v.pipe(
    v.optional(v.string()),
    v.transform((id) => (id && /^[\w-]{1,100}$/.test(id) ? id : undefined)),
  ),
});

export const Route = createFileRoute('/admin/discounts')({
  validateSearch: valibotValidator(SearchSchema),
  component: DiscountsPage,
});

/** The form's target: a new code, or the code edited. */
type Editing = { discount?: Discount } | null;

function DiscountsPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const userId = Route.useRouteContext().merchant.id;
  const { stores, storeId, load, reload } = useStoreLoad({
    userId,
    storeId: search.storeId,
    permission: 'read',
    fetch: fetchDiscounts,
  });
  // Note: a role that may not change the store's codes sees them without the buttons.
  const canManage = may(stores.find((s) => s.item.id === storeId)?.item, 'manage');
  const [products, setProducts] = useState<MerchantProduct[]>([]);
  const [editing, setEditing] = useState<Editing>(null);

  useEffect(() => {
    if (!storeId) return;
    fetchStoreProducts(storeId).then(setProducts, () => setProducts([]));
  }, [storeId]);

  const switchActive = async (discount: Discount) => {
    if (!storeId) return;
    try {
      const body = discountBody({
        ...discountFormDefaults(discount),
        isActive: !discount.isActive,
      });
      await saveDiscount(storeId, body, discount.id);
      toast({
        title: discount.isActive ? 'Code deactivated' : 'Code activated',
        description: discount.isActive
          ? `${discount.code} no longer works at checkout.`
          : `${discount.code} works at checkout again.`,
      });
      await reload();
    } catch (error) {
      toastError('Failed to update code', errorText(error));
    }
  };

  return (
    <>
      <div className="admin-heading">
        <h1>Discounts</h1>
        {storeId && canManage && (
          <button type="button" className="button" onClick={() => setEditing({})}>
            New code
          </button>
        )}
      </div>
      <form
        className="admin-filters"
        aria-label="Discount filters"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="field">
          <label htmlFor="discounts-store">Store</label>
          <select
            id="discounts-store"
            value={storeId ?? ''}
            onChange={(event) =>
              void navigate({
                search: { storeId: event.target.value || undefined },
                replace: true,
              })
            }
          >
            {stores.length === 0 && <option value="">No store yet</option>}
            {stores.map(({ item }) => (
              <option key={item.id} value={item.id}>
                {item.name}
              </option>
            ))}
          </select>
        </div>
      </form>
      <section className="card" aria-label="Discount codes">
        {!storeId ? (
          <p className="muted">Create a store first, then give its shoppers discount codes.</p>
        ) : load.state === 'loading' ? (
          <p className="muted">Loading discount codes…</p>
        ) : load.state === 'offline' ? (
          <p className="muted" role="status">
            Discount codes need a connection. Connect to the internet and try again.
          </p>
        ) : load.state === 'refused' ? (
          <p className="field-error" role="alert">
            {load.text}
          </p>
        ) : (
          <DiscountTable
            discounts={load.value}
            products={products}
            canManage={canManage}
            onEdit={(discount) => setEditing({ discount })}
            onSwitch={(discount) => void switchActive(discount)}
          />
        )}
        <p className="muted small">
          A use is an order placed with the code that is paid, or pending for up to{' '}
          {DISCOUNT_HOLD_MINUTES} minutes while its shopper pays; an unpaid order gives its use
          back.
        </p>
      </section>
      {storeId && (
        <Modal
          title={editing?.discount ? `Edit ${editing.discount.code}` : 'New discount code'}
          open={editing !== null}
          onClose={() => setEditing(null)}
        >
          {editing && (
            <DiscountForm
              storeId={storeId}
              discount={editing.discount}
              products={products}
              onDone={(saved) => {
                setEditing(null);
                if (saved) void reload();
              }}
            />
          )}
        </Modal>
      )}
    </>
  );
}

/** "3", "3 of 100", "3 of 100 (1 each)". */
function limitText(discount: Discount): string {
  const all = discount.maxUses === null ? '' : ` of ${discount.maxUses}`;
  const each = discount.maxUsesPerCustomer === null ? '' : ` (${discount.maxUsesPerCustomer} each)`;
  return `${discount.uses}${all}${each}`;
}

function DiscountTable(props: {
  discounts: Discount[];
  products: MerchantProduct[];
  /** False for a role that may not change the codes: no buttons. */
  canManage: boolean;
  onEdit: (discount: Discount) => void;
  onSwitch: (discount: Discount) => void;
}) {
  if (props.discounts.length === 0)
    return (
      <p className="muted">
        {props.canManage
          ? 'No discount codes yet. Create one with “New code”.'
          : 'No discount codes yet.'}
      </p>
    );
  const titles = new Map(props.products.map((p) => [p.id, p.title]));
  const now = Date.now();
  return (
    <div className="table-wrap table-cards">
      <table>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Discount</th>
            <th scope="col">Minimum order</th>
            <th scope="col">Expires</th>
            <th scope="col">Uses</th>
            <th scope="col">Paid orders</th>
            <th scope="col">Discounted</th>
            <th scope="col">Revenue</th>
            <th scope="col">Status</th>
            {props.canManage && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {props.discounts.map((discount) => {
            const expired = discount.expiresAt !== null && Date.parse(discount.expiresAt) <= now;
            return (
              <tr key={discount.id}>
                <th scope="row">
                  <code>{discount.code}</code>
                </th>
                <td data-label="Discount">
                  {describeDiscount(discount)}
                  {discount.productIds && (
                    <div className="muted small">
                      {discount.productIds.map((id) => titles.get(id) ?? 'a product').join(', ')}
                    </div>
                  )}
                </td>
                <td data-label="Minimum order">
                  {discount.minimumSubtotalUsdc === '0.00'
                    ? 'None'
                    : usdc(discount.minimumSubtotalUsdc)}
                </td>
                <td data-label="Expires">
                  {discount.expiresAt ? new Date(discount.expiresAt).toLocaleString() : 'Never'}
                </td>
                <td data-label="Uses">{limitText(discount)}</td>
                <td data-label="Paid orders">{discount.paidOrders}</td>
                <td data-label="Discounted">{usdc(discount.discountedUsdc)}</td>
                <td data-label="Revenue">{usdc(discount.revenueUsdc)}</td>
                <td data-label="Status">
                  {!discount.isActive ? 'Inactive' : expired ? 'Expired' : 'Active'}
                </td>
                {props.canManage && (
                  <td data-label="Actions">
                    <div className="actions">
                      <button
                        type="button"
                        className="button button-quiet button-small"
                        aria-label={`Edit ${discount.code}`}
                        onClick={() => props.onEdit(discount)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button button-quiet button-small"
                        aria-label={`${discount.isActive ? 'Deactivate' : 'Activate'} ${discount.code}`}
                        onClick={() => props.onSwitch(discount)}
                      >
                        {discount.isActive ? 'Deactivate' : 'Activate'}
                      </button>
                    </div>
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const KIND_OPTIONS = [
  { value: 'percent', label: 'Percentage off' },
  { value: 'fixed', label: 'Fixed amount off (USDC)' },
];

function DiscountForm(props: {
  storeId: string;
  discount?: Discount | undefined;
  products: MerchantProduct[];
  onDone: (saved: boolean) => void;
}) {
  const form = useAdminForm({
    defaultValues: discountFormDefaults(props.discount),
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<DiscountFormValues>(DiscountFormSchema) },
    onSubmit: async ({ value }) => {
      try {
        const saved = await saveDiscount(props.storeId, discountBody(value), props.discount?.id);
        toast({
          title: props.discount ? 'Code updated' : 'Code created',
          description: `${saved.code}: ${describeDiscount(saved)}`,
        });
        props.onDone(true);
      } catch (error) {
        toastError(
          props.discount ? 'Failed to update code' : 'Failed to create code',
          errorText(error),
        );
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  const kind = useStore(form.store, (state) => state.values.kind);
  return (
    <form noValidate onSubmit={submitWith(form)}>
      <div className="field-grid">
        <form.AppField name="code">
          {(field) => (
            <field.InputField
              label="Code"
              hint="Letters, digits, - and _; shoppers may type it in any case"
              autoComplete="off"
            />
          )}
        </form.AppField>
        <form.AppField name="kind">
          {(field) => <field.SelectField label="Type" options={KIND_OPTIONS} />}
        </form.AppField>
        <form.AppField name="amount">
          {(field) => (
            <field.InputField
              label={kind === 'percent' ? 'Percent off' : 'Amount off (USDC)'}
              inputMode="decimal"
              placeholder={kind === 'percent' ? '10' : '5.00'}
            />
          )}
        </form.AppField>
        <form.AppField name="minimum">
          {(field) => (
            <field.InputField
              label="Minimum order (USDC)"
              hint="Subtotal before shipping and tax; empty for none"
              inputMode="decimal"
            />
          )}
        </form.AppField>
        <form.AppField name="expiresAt">
          {(field) => (
            <field.InputField label="Expires" type="datetime-local" hint="Empty: never expires" />
          )}
        </form.AppField>
        <form.AppField name="maxUses">
          {(field) => (
            <field.InputField label="Uses in all" inputMode="numeric" hint="Empty: no limit" />
          )}
        </form.AppField>
        <form.AppField name="maxUsesPerCustomer">
          {(field) => (
            <field.InputField
              label="Uses per customer"
              inputMode="numeric"
              hint="Counted by email address; empty: no limit"
            />
          )}
        </form.AppField>
      </div>
      {props.products.length > 0 && (
        <form.Field name="productIds">
          {(field) => (
            <fieldset className="field discount-products">
              <legend>Applies to</legend>
              <p className="field-hint">None ticked: every product.</p>
              {props.products.map((product) => (
                <div className="checkbox-line" key={product.id}>
                  <input
                    id={`discount-product-${product.id}`}
                    type="checkbox"
                    checked={field.state.value.includes(product.id)}
                    onChange={(event) =>
                      field.handleChange(
                        event.currentTarget.checked
                          ? [...field.state.value, product.id]
                          : field.state.value.filter((id) => id !== product.id),
                      )
                    }
                  />
                  <label htmlFor={`discount-product-${product.id}`}>{product.title}</label>
                </div>
              ))}
            </fieldset>
          )}
        </form.Field>
      )}
      <form.Field name="isActive">
        {(field) => (
          <div className="checkbox-line discount-active">
            <input
              id="discount-active"
              type="checkbox"
              checked={field.state.value}
              onChange={(event) => field.handleChange(event.currentTarget.checked)}
            />
            <label htmlFor="discount-active">Active: shoppers can use it</label>
          </div>
        )}
      </form.Field>
      <ModalFormActions
        onCancel={() => props.onDone(false)}
        submitting={submitting}
        submitLabel={props.discount ? 'Save code' : 'Create code'}
      />
    </form>
  );
}
