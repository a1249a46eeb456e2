// The link builder's shipping and customer pre-fill sections, and the generated link with its
// copy and test actions (SPEC §2, §5: shipping parameters only when shipping is enabled).
import { LINK_BUILDER_MESSAGES, type LinkBuilderState, PREFILL_PARAMS } from '@store/shared';
import { CopyButton } from '../../../components/copy-button.tsx';
import { TextInput } from './text-input.tsx';

/** Props of a section: the builder state and its patcher. */
interface SectionProps {
  state: LinkBuilderState;
  set: (patch: Partial<LinkBuilderState>) => void;
}

const PREFILL_LABELS: Record<(typeof PREFILL_PARAMS)[number], string> = {
  customerEmail: 'Email',
  phone: 'Phone',
  firstName: 'First name',
  lastName: 'Last name',
  street: 'Street',
  city: 'City',
  state: 'State (code, e.g. NY)',
  zipCode: 'ZIP code',
};

/** Shipping: the toggle, the free flag and the two prices. */
export function ShippingSection({ state, set }: SectionProps) {
  return (
    <section className="card" aria-labelledby="shipping-title">
      <h2 id="shipping-title">Shipping</h2>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={state.shippingEnabled}
          onChange={(e) => set({ shippingEnabled: e.target.checked })}
        />
        Ask for a shipping method
      </label>
      {state.shippingEnabled && (
        <div className="field-grid">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={state.freeShipping}
              onChange={(e) => set({ freeShipping: e.target.checked })}
            />
            Offer free shipping
          </label>
          <TextInput
            label="Standard shipping price"
            type="number"
            step="0.01"
            min="0"
            value={state.standardShipping ?? ''}
            onChange={(value) => set({ standardShipping: value })}
          />
          <TextInput
            label="Express shipping price"
            type="number"
            step="0.01"
            min="0"
            value={state.expressShipping ?? ''}
            onChange={(value) => set({ expressShipping: value })}
          />
        </div>
      )}
    </section>
  );
}

/** Customer pre-fill: the eight optional customer fields. */
export function PrefillSection({ state, set }: SectionProps) {
  return (
    <section className="card" aria-labelledby="prefill-title">
      <h2 id="prefill-title">Customer pre-fill (optional)</h2>
      <div className="field-grid">
        {PREFILL_PARAMS.map((name) => (
          <TextInput
            key={name}
            label={PREFILL_LABELS[name]}
            value={state.prefill?.[name] ?? ''}
            onChange={(value) => set({ prefill: { ...state.prefill, [name]: value } })}
          />
        ))}
      </div>
    </section>
  );
}

/** The generated link with Copy Link and Test Link. */
export function GeneratedLink(props: { link: string }) {
  return (
    <section className="card generated-link" aria-labelledby="link-title" aria-live="polite">
      <h2 id="link-title">Your payment link</h2>
      <pre className="code-block">
        <code data-testid="generated-link">{props.link}</code>
      </pre>
      <div className="actions actions-start">
        <CopyButton
          text={props.link}
          label="Link"
          failureTitle={LINK_BUILDER_MESSAGES.copyFailed}
          className="button button-quiet"
        >
          Copy Link
        </CopyButton>
        <a href={props.link} target="_blank" rel="noopener noreferrer" className="button">
          Test Link
        </a>
      </div>
    </section>
  );
}
