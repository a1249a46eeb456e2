// The 'Add New Product' dialog (docs/rules.md#product-form) and its Edit Product twin: TanStack
// Form validated by the shared product rules, the image hint, inventory parsed as the rules say
// (non-numeric is 0), the price cap, and the save through the outbox (so it also works offline).
// Both offer the digital panel: Add Product uploads the file chosen once the product is created.
import { FAILURE_TOASTS, SUCCESS_TOASTS } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import { submitWith } from '../../lib/form.tsx';
import { toastError } from '../../lib/toast.ts';
import { refreshProducts } from '../cache.ts';
import {
  formValidator,
  imageHint,
  ProductFormSchema,
  type ProductFormValues,
  productBody,
  productFormDefaults,
} from '../form-values.ts';
import type { SubmitOutcome } from '../outbox/submit.ts';
import type { MerchantProduct } from '../types.ts';
import { DigitalProductPanel, uploadFileOf } from './digital-product-panel.tsx';
import { useAdminForm } from './fields.tsx';
import { Modal, ModalFormActions } from './modal.tsx';
import { saveFromDialog } from './save-outcome.ts';

interface ProductFormProps {
  userId: string;
  storeId: string;
  /** The store's name, shown so the merchant knows where the product goes. */
  storeName: string;
  /** The product to edit; absent for Add New Product. */
  product?: MerchantProduct | undefined;
  onDone: () => void;
}

const PRODUCT_UPDATED = { title: 'Product updated successfully' };

/** Add New Product without `product`, Edit Product with it. */
export function ProductFormDialog(props: ProductFormProps & { open: boolean }) {
  return (
    <Modal
      title={props.product ? 'Edit Product' : 'Add New Product'}
      open={props.open}
      onClose={props.onDone}
    >
      <ProductForm {...props} />
    </Modal>
  );
}

function ProductForm({ userId, storeId, storeName, product, onDone }: ProductFormProps) {
  const initial = productFormDefaults(storeId, product);
  // Add Product: the file to sell, uploaded once the product exists.
  const [file, setFile] = useState<File>();
  // The server's refusal of the last save (e.g. a price above the cap), shown in the dialog.
  const [refusal, setRefusal] = useState<string>();
  const form = useAdminForm({
    defaultValues: initial,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<ProductFormValues>(ProductFormSchema) },
    onSubmit: async ({ value, formApi }) => {
      const { storeId: _store, ...body } = productBody(value);
      const texts = product
        ? { success: PRODUCT_UPDATED, failure: 'Failed to update product' }
        : { success: SUCCESS_TOASTS.productAdded, failure: FAILURE_TOASTS.addProduct };
      const target = { userId, kind: 'product', storeId } as const;
      let outcome: SubmitOutcome | undefined;
      setRefusal(undefined);
      const close = await saveFromDialog({
        target,
        current: product,
        initial,
        value,
        body,
        texts,
        onOutcome: (seen) => {
          outcome = seen;
        },
      });
      if (outcome?.status === 'failed') setRefusal(outcome.message);
      if (!close) return;
      if (!product && file) await uploadAfterCreate(outcome, file);
      formApi.reset();
      onDone();
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);
  /** The chosen file of a new product, once the product is on the server. */
  const uploadAfterCreate = async (outcome: SubmitOutcome | undefined, chosen: File) => {
    if (outcome?.status !== 'synced') {
      toastError(
        'File not uploaded',
        'The product is saved on this device only: add its file from Edit Product once it syncs.',
      );
      return;
    }
    await uploadFileOf(outcome.saved.id, chosen);
    await refreshProducts(userId, storeId).catch(() => undefined);
  };

  return (
    <form noValidate onSubmit={submitWith(form)}>
      <p className="muted small">Store: {storeName}</p>
      <form.AppField name="title">{(field) => <field.InputField label="Title" />}</form.AppField>
      <form.AppField name="description">
        {(field) => <field.TextAreaField label="Description" />}
      </form.AppField>
      <div className="field-grid">
        <form.AppField name="priceUsdc">
          {(field) => (
            <field.InputField label="Price (USDC)" inputMode="decimal" placeholder="0.00" />
          )}
        </form.AppField>
        <form.AppField name="maxPriceUsdc">
          {(field) => (
            <field.InputField
              label="Price cap (USDC, optional)"
              inputMode="decimal"
              placeholder="none"
              hint="A price above it is refused: a guard against a mistyped price"
            />
          )}
        </form.AppField>
        <form.AppField name="inventory">
          {(field) => (
            <field.InputField
              label="Inventory"
              inputMode="numeric"
              hint="Units in stock; 0 with Track stock off means not counted"
            />
          )}
        </form.AppField>
      </div>
      <form.AppField name="imageUrl">
        {(field) => (
          <field.ImageField
            kind="product"
            label="Image"
            placeholder="https://…"
            hint={imageHint('product')}
          />
        )}
      </form.AppField>
      <form.AppField name="trackInventory">
        {(field) => (
          <field.CheckboxField
            label="Track stock"
            hint="Sell only what is in stock: at 0 the product shows as sold out"
          />
        )}
      </form.AppField>
      <form.AppField name="isPublished">
        {(field) => <field.CheckboxField label="Published" />}
      </form.AppField>
      <DigitalProductPanel
        product={product}
        onChanged={() => void refreshProducts(userId, storeId).catch(() => undefined)}
        onFileChosen={setFile}
      />
      {refusal && (
        <p className="notice notice-error" role="alert">
          {product ? 'Failed to update product' : FAILURE_TOASTS.addProduct}: {refusal}
        </p>
      )}
      <ModalFormActions
        onCancel={onDone}
        submitting={submitting}
        submitLabel={product ? 'Save Product' : 'Add Product'}
      />
    </form>
  );
}
