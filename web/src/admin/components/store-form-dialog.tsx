// The 'Create New Store' and 'Edit Store' dialogs (docs/rules.md#store-form): TanStack Form
// validated by the shared CreateStoreSchema, the slug generated from the name until the merchant
// types one, the logo hint, and the save through the outbox (so it also works offline).
import { CreateStoreSchema, FAILURE_TOASTS, SUCCESS_TOASTS, slugify, THEMES } from '@store/shared';
import { revalidateLogic, useStore } from '@tanstack/react-form';
import { useState } from 'react';
import {
  needsStoreCode,
  StoreCodeField,
  saveGuardedStoreChange,
  useStoreSecondFactor,
} from '../../account/guarded-store-change.tsx';
import { submitWith } from '../../lib/form.tsx';
import {
  formValidator,
  imageHint,
  type StoreFormValues,
  storeBody,
  storeFormDefaults,
} from '../form-values.ts';
import { may } from '../permissions.ts';
import type { MerchantStore } from '../types.ts';
import { useAdminForm } from './fields.tsx';
import { Modal, ModalFormActions } from './modal.tsx';
import { saveFromDialog } from './save-outcome.ts';

const THEME_OPTIONS = THEMES.map((theme) => ({
  value: theme,
  label: theme === 'dark' ? 'Dark' : 'Light',
}));
const COLOURS = [
  ['primaryColor', 'Primary color'],
  ['secondaryColor', 'Secondary color'],
  ['accentColor', 'Accent color'],
] as const;

interface StoreFormProps {
  userId: string;
  /** The store to edit; absent for Create New Store. */
  store?: MerchantStore | undefined;
  onDone: () => void;
}

/** The store dialog: Create New Store without `store`, Edit Store with it. */
export function StoreFormDialog(props: StoreFormProps & { open: boolean }) {
  return (
    <Modal
      title={props.store ? 'Edit Store' : 'Create New Store'}
      open={props.open}
      onClose={props.onDone}
    >
      <StoreForm userId={props.userId} store={props.store} onDone={props.onDone} />
    </Modal>
  );
}

function StoreForm({ userId, store, onDone }: StoreFormProps) {
  const initial = storeFormDefaults(store);
  // Note: Edit Store keeps the slug it has; only a new store follows its name.
  const [slugEdited, setSlugEdited] = useState(store !== undefined);
  const factor = useStoreSecondFactor();
  const form = useAdminForm({
    defaultValues: initial,
    validationLogic: revalidateLogic(),
    validators: { onDynamic: formValidator<StoreFormValues>(CreateStoreSchema) },
    onSubmit: async ({ value, formApi }) => {
      const body = storeBody(value);
      // Note: with two-step verification on, a new store, payout address or slug carries a
      // fresh code.
      const guarded = await saveGuardedStoreChange({ factor, userId, store, initial, value, body });
      if (guarded !== 'outbox') {
        if (guarded === 'saved') {
          formApi.reset();
          onDone();
        }
        return;
      }
      const texts = store
        ? { success: SUCCESS_TOASTS.storeUpdated, failure: FAILURE_TOASTS.updateStore }
        : { success: SUCCESS_TOASTS.storeCreated, failure: FAILURE_TOASTS.createStore };
      const target = { userId, kind: 'store' } as const;
      if (await saveFromDialog({ target, current: store, initial, value, body, texts })) {
        formApi.reset();
        onDone();
      }
    },
  });
  const submitting = useStore(form.store, (state) => state.isSubmitting);

  return (
    <form noValidate onSubmit={submitWith(form)}>
      <div className="field-grid">
        <form.AppField name="name">
          {(field) => (
            <field.InputField
              label="Store Name"
              onUserChange={(name) => {
                if (!slugEdited) form.setFieldValue('slug', slugify(name));
              }}
            />
          )}
        </form.AppField>
        <form.AppField name="slug">
          {(field) => (
            <field.InputField
              label="Store Slug"
              hint={`Your store's address: ${window.location.origin}/store/${field.state.value.trim() || 'your-slug'}`}
              onUserChange={(slug) => setSlugEdited(slug !== '')}
            />
          )}
        </form.AppField>
      </div>
      <form.AppField name="description">
        {(field) => <field.TextAreaField label="Description" />}
      </form.AppField>
      <div className="field-grid">
        <form.AppField name="logoUrl">
          {(field) => (
            <field.ImageField
              kind="logo"
              label="Logo"
              placeholder="https://… or 🛍️"
              hint={`${imageHint('logo')}; or a 1-2 character emoji`}
            />
          )}
        </form.AppField>
        {/* Note: only a role that may change where the money goes sees the payout address field. */}
        {(!store || may(store, 'payout')) && (
          <form.AppField name="paymentAddress">
            {(field) => (
              <field.InputField label="Payment Address" placeholder="0x…" autoComplete="off" />
            )}
          </form.AppField>
        )}
        <form.AppField name="replyToEmail">
          {(field) => (
            <field.InputField
              label="Reply-to email"
              placeholder="help@yourstore.com"
              hint="Where shoppers' replies to their receipts go"
              type="email"
              autoComplete="email"
            />
          )}
        </form.AppField>
        <form.AppField name="theme">
          {(field) => <field.SelectField label="Theme" options={THEME_OPTIONS} />}
        </form.AppField>
        {COLOURS.map(([name, label]) => (
          <form.AppField key={name} name={name}>
            {(field) => <field.ColorField label={label} />}
          </form.AppField>
        ))}
      </div>
      {/* Note: by the button, where a refused code's message is seen. */}
      <form.Subscribe selector={(state) => state.values}>
        {(values) => (
          <StoreCodeField factor={factor} needed={needsStoreCode(store, initial, values)} />
        )}
      </form.Subscribe>
      <ModalFormActions
        onCancel={onDone}
        submitting={submitting}
        submitLabel={store ? 'Update Store' : 'Create Store'}
      />
    </form>
  );
}
