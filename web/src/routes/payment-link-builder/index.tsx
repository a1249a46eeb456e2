// Route /payment-link-builder (docs/screens.md#payment-link-builder): required fields, products,
// branding, shipping and customer pre-fill; 'Generate' makes an ORDER-{timestamp}-{random} id and
// 'Generate Payment Link' builds the universal-checkout link to copy or test. Every problem (shared
// linkBuilderIssues: the required fields first) shows beside its field and no link is built while
// one remains; a signed-in merchant who picks a store gets the link signed by the API.
import {
  buildCheckoutUrl,
  completeItems,
  formatUsdc,
  generateExternalOrderId,
  LINK_BUILDER_MESSAGES,
  type LinkBuilderState,
  linkBuilderIssues,
  subtotalOf,
} from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { errorText } from '../../lib/api.ts';
import { useChainInfo } from '../../lib/chain-info.ts';
import { toastError } from '../../lib/toast.ts';
import { ContentPage } from '../-landing/content-page.tsx';
import { ItemRows } from './-components/item-rows.tsx';
import { GeneratedLink, PrefillSection, ShippingSection } from './-components/sections.tsx';
import {
  SigningSection,
  type SigningStore,
  signLinkFor,
  useSigningStores,
  withDiscountCode,
} from './-components/signing.tsx';
import { TextInput } from './-components/text-input.tsx';

export const Route = createFileRoute('/payment-link-builder/')({ component: LinkBuilderPage });

const INITIAL: LinkBuilderState = {
  storeName: '',
  paymentAddress: '',
  externalOrderId: '',
  webhookUrl: '',
  items: [{ title: '', priceUsdc: '', quantity: '1' }],
  theme: 'dark',
  primaryColor: '',
  secondaryColor: '',
  accentColor: '',
  logoUrl: '',
  returnUrl: '',
  shippingEnabled: false,
  freeShipping: false,
  standardShipping: '',
  expressShipping: '',
  prefill: {},
};

/** What the link asks the shopper for, in one line. */
function summaryOf(state: LinkBuilderState): string {
  const items = completeItems(state.items);
  const count = items.reduce((sum, item) => sum + item.quantity, 0);
  const subtotal = formatUsdc(subtotalOf(items));
  const shipping = state.shippingEnabled ? ' + shipping' : '';
  return `${count} item${count === 1 ? '' : 's'} · ${subtotal} USDC${shipping} · paid to ${state.paymentAddress.trim()}`;
}

/** The first problem of each field, by field. */
function errorsByField(issues: readonly { field: string; message: string }[]) {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.field] ??= issue.message;
  return errors;
}

function LinkBuilderPage() {
  const [state, setState] = useState<LinkBuilderState>(INITIAL);
  const [link, setLink] = useState<{ url: string; summary: string; signedFor?: string }>();
  // Note: the problems show once 'Generate Payment Link' was pressed, then follow every edit.
  const [checked, setChecked] = useState(false);
  const [signing, setSigning] = useState<SigningStore>();
  const [busy, setBusy] = useState(false);
  const [discountCode, setDiscountCode] = useState('');
  const stores = useSigningStores();
  const { networkName } = useChainInfo();
  const issues = linkBuilderIssues(state);
  const errors = checked ? errorsByField(issues) : {};
  const set = (patch: Partial<LinkBuilderState>) => {
    setState((current) => ({ ...current, ...patch }));
    setLink(undefined);
  };
  const text = (
    name:
      | 'storeName'
      | 'paymentAddress'
      | 'externalOrderId'
      | 'webhookUrl'
      | 'primaryColor'
      | 'secondaryColor'
      | 'accentColor'
      | 'logoUrl'
      | 'returnUrl',
  ) => ({
    value: state[name] ?? '',
    error: errors[name],
    onChange: (value: string) => set({ [name]: value }),
  });

  const generate = async () => {
    setChecked(true);
    const [first] = issues;
    if (first) {
      toastError(LINK_BUILDER_MESSAGES.errorTitle, first.message);
      return;
    }
    const url = buildCheckoutUrl(window.location.origin, state);
    if (!signing) {
      setLink({ url, summary: summaryOf(state) });
      return;
    }
    setBusy(true);
    try {
      const path = await signLinkFor(signing.id, withDiscountCode(url, discountCode));
      const code = discountCode.trim().toUpperCase();
      setLink({
        url: `${window.location.origin}${path}`,
        summary: `${summaryOf(state)}${code ? ` · discount code ${code}` : ''}`,
        signedFor: signing.name,
      });
    } catch (error) {
      toastError(LINK_BUILDER_MESSAGES.errorTitle, errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <ContentPage title="Payment Link Builder" className="builder">
      <p className="muted">Build a checkout link for your products. No account needed.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void generate();
        }}
      >
        {stores && stores.length > 0 && (
          <SigningSection
            stores={stores}
            storeId={signing?.id ?? ''}
            onPick={(store) => {
              setSigning(store);
              if (store?.paymentAddress) set({ paymentAddress: store.paymentAddress });
              else setLink(undefined);
            }}
            discountCode={discountCode}
            onDiscountCode={(code) => {
              setDiscountCode(code);
              setLink(undefined);
            }}
          />
        )}
        <section className="card" aria-labelledby="required-title">
          <h2 id="required-title">Required fields</h2>
          <div className="field-grid">
            <TextInput label="Store name" {...text('storeName')} />
            <TextInput
              label={`Payment address (${networkName})`}
              placeholder="0x…"
              readOnly={signing !== undefined}
              hint={signing ? `The payout address of ${signing.name}` : undefined}
              {...text('paymentAddress')}
            />
            <div className="field-with-action">
              <TextInput label="External order ID" {...text('externalOrderId')} />
              <button
                type="button"
                className="button button-quiet"
                onClick={() =>
                  set({ externalOrderId: generateExternalOrderId(Date.now(), Math.random) })
                }
              >
                Generate
              </button>
            </div>
            <TextInput
              label="Webhook URL"
              type="url"
              placeholder="https://…"
              {...text('webhookUrl')}
            />
          </div>
        </section>
        <section className="card" aria-labelledby="products-title">
          <h2 id="products-title">Products</h2>
          {errors.items && <p className="field-error">{errors.items}</p>}
          <ItemRows items={state.items} errors={errors} onChange={(items) => set({ items })} />
        </section>
        <section className="card" aria-labelledby="branding-title">
          <h2 id="branding-title">Branding</h2>
          <div className="field-grid">
            <div className="field">
              <label htmlFor="builder-theme">Theme</label>
              <select
                id="builder-theme"
                value={state.theme}
                onChange={(event) =>
                  set({ theme: event.target.value === 'light' ? 'light' : 'dark' })
                }
              >
                <option value="dark">Dark</option>
                <option value="light">Light</option>
              </select>
            </div>
            <TextInput label="Primary colour" placeholder="#6366f1" {...text('primaryColor')} />
            <TextInput label="Secondary colour" placeholder="#8b5cf6" {...text('secondaryColor')} />
            <TextInput label="Accent colour" placeholder="#06b6d4" {...text('accentColor')} />
            <TextInput label="Logo URL or emoji" {...text('logoUrl')} />
            <TextInput
              label="Return URL"
              type="url"
              placeholder="https://…"
              {...text('returnUrl')}
            />
          </div>
        </section>
        <ShippingSection state={state} set={set} errors={errors} />
        <PrefillSection state={state} set={set} errors={errors} />
        {errors.link && <p className="field-error">{errors.link}</p>}
        <button type="submit" className="button button-large" disabled={busy}>
          {signing ? 'Generate Signed Payment Link' : 'Generate Payment Link'}
        </button>
      </form>
      {link && <GeneratedLink link={link.url} summary={link.summary} signedFor={link.signedFor} />}
    </ContentPage>
  );
}
