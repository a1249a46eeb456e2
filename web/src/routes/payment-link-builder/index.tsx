// Route /payment-link-builder (SPEC §2, §5): required fields, products, branding, shipping and
// customer pre-fill; 'Generate' makes an ORDER-{timestamp}-{random} id and 'Generate Payment Link'
// builds the universal-checkout link (shared validateLinkBuilder/buildCheckoutUrl) to copy or test.
import {
  buildCheckoutUrl,
  generateExternalOrderId,
  LINK_BUILDER_MESSAGES,
  type LinkBuilderState,
  validateLinkBuilder,
} from '@store/shared';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { toastError } from '../../lib/toast.ts';
import { ContentPage } from '../-landing/content-page.tsx';
import { ItemRows } from './-components/item-rows.tsx';
import { GeneratedLink, PrefillSection, ShippingSection } from './-components/sections.tsx';
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

function LinkBuilderPage() {
  const [state, setState] = useState<LinkBuilderState>(INITIAL);
  const [link, setLink] = useState<string>();
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
    onChange: (value: string) => set({ [name]: value }),
  });

  const generate = () => {
    const check = validateLinkBuilder(state);
    if (!check.ok) {
      toastError(LINK_BUILDER_MESSAGES.errorTitle, check.error);
      return;
    }
    setLink(buildCheckoutUrl(window.location.origin, state));
  };

  return (
    <ContentPage title="Payment Link Builder" className="builder">
      <p className="muted">Build a checkout link for your products. No account needed.</p>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          generate();
        }}
      >
        <section className="card" aria-labelledby="required-title">
          <h2 id="required-title">Required fields</h2>
          <div className="field-grid">
            <TextInput label="Store name" {...text('storeName')} />
            <TextInput
              label="Payment address (Base)"
              placeholder="0x…"
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
          <ItemRows items={state.items} onChange={(items) => set({ items })} />
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
        <ShippingSection state={state} set={set} />
        <PrefillSection state={state} set={set} />
        <button type="submit" className="button button-large">
          Generate Payment Link
        </button>
      </form>
      {link && <GeneratedLink link={link} />}
    </ContentPage>
  );
}
