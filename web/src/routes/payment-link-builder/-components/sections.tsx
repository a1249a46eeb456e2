// The link builder's shipping and customer pre-fill sections, and the generated link with its
// copy and test actions (docs/rules.md#link-builder: shipping parameters only when shipping is
// enabled).
import { LINK_BUILDER_MESSAGES, type LinkBuilderState, PREFILL_PARAMS } from '@store/shared';
import { CopyButton } from '../../../components/copy-button.tsx';
import { TextInput } from './text-input.tsx';

/** Props of a section: the builder state, its patcher and the problems by field. */
interface SectionProps {
  state: LinkBuilderState;
  set: (patch: Partial<LinkBuilderState>) => void;
  errors?: Readonly<Record<string, string>>;
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
  country: 'Country (code, e.g. DE; default US)',
};

/** Shipping: the toggle, the free flag and the two prices. */
export function ShippingSection({ state, set, errors }: SectionProps) {
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
            error={errors?.standardShipping}
            onChange={(value) => set({ standardShipping: value })}
          />
          <TextInput
            label="Express shipping price"
            type="number"
            step="0.01"
            min="0"
            value={state.expressShipping ?? ''}
            error={errors?.expressShipping}
            onChange={(value) => set({ expressShipping: value })}
          />
        </div>
      )}
    </section>
  );
}

/** Customer pre-fill: the eight optional customer fields. */
export function PrefillSection({ state, set, errors }: SectionProps) {
  return (
    <section className="card" aria-labelledby="prefill-title">
      <h2 id="prefill-title">Customer pre-fill (optional)</h2>
      <div className="field-grid">
        {PREFILL_PARAMS.map((name) => (
          <TextInput
            key={name}
            label={PREFILL_LABELS[name]}
            value={state.prefill?.[name] ?? ''}
            error={errors?.[`prefill.${name}`]}
            onChange={(value) => set({ prefill: { ...state.prefill, [name]: value } })}
          />
        ))}
      </div>
    </section>
  );
}

/** The generated link with Copy Link and Test Link, what it asks for, and whether it is signed. */
export function GeneratedLink(props: {
  link: string;
  summary: string;
  /** The store whose secret signed the link, when it is signed. */
  signedFor?: string;
}) {
  return (
    <section className="card generated-link" aria-labelledby="link-title" aria-live="polite">
      <h2 id="link-title">Your payment link</h2>
      <p data-testid="link-signature" className={props.signedFor ? 'link-signed' : 'muted'}>
        {props.signedFor
          ? `Signed for ${props.signedFor}: a shopper who edits the price, items or payee gets a refusal.`
          : 'Not signed: anyone can edit this link, and its webhook says signed: false.'}
      </p>
      <pre className="code-block">
        <code data-testid="generated-link">{props.link}</code>
      </pre>
      <p className="muted small" data-testid="link-preview">
        Preview: {props.summary}
      </p>
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
