// Route /universal-checkout: the hosted checkout of an external store, driven by the link's query
// parameters (docs/screens.md#universal-checkout): the external store's name, logo and colours, the
// form, the summary, and the 'Checkout Error' card when the parameters cannot be used.
import { parseCheckoutParams } from '@store/shared';
import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { valibotValidator } from '@tanstack/valibot-adapter';
import { useMemo, useState } from 'react';
import * as v from 'valibot';
import { LoadingPage } from '../../components/message-card.tsx';
import { PoweredBy } from '../../components/powered-by.tsx';
import { StoreLogo } from '../../components/store-logo.tsx';
import { useStoreTheme } from '../../lib/theme.ts';
import { CheckoutError } from './-components/checkout-error.tsx';
import {
  LinkAlteredCard,
  openedLinkQuery,
  SignedBadge,
  useSignedLinkCheck,
} from './-components/signed-link.tsx';
import { UniversalForm } from './-components/universal-form.tsx';

// Note: every value is a string (see router.tsx); parseCheckoutParams applies
// docs/rules.md#checkout-link-parameters.
const SearchSchema = v.record(v.string(), v.string());

export const Route = createFileRoute('/universal-checkout/')({
  validateSearch: valibotValidator(SearchSchema),
  component: UniversalCheckoutPage,
});

function UniversalCheckoutPage() {
  const search = Route.useSearch();
  const navigate = useNavigate();
  const [created, setCreated] = useState(false);
  // Note: the link as opened (duplicates and all), which is what a signature covers.
  const [link] = useState(openedLinkQuery);
  const signature = useSignedLinkCheck(link);
  const parsed = useMemo(() => parseCheckoutParams(new URLSearchParams(search)), [search]);
  const params = parsed.ok ? parsed.value : undefined;
  useStoreTheme(
    params && {
      theme: params.theme ?? null,
      primaryColor: params.primaryColor ?? null,
      secondaryColor: params.secondaryColor ?? null,
      accentColor: params.accentColor ?? null,
    },
  );

  if (signature.kind === 'refused') return <LinkAlteredCard message={signature.message} />;
  if (signature.kind === 'checking') return <LoadingPage text="Checking this payment link..." />;
  if (!parsed.ok) return <CheckoutError message={parsed.error} />;
  if (created || !params) return <LoadingPage text="Redirecting to payment..." />;
  return (
    <main className="page checkout-page">
      <header className="payment-header">
        <StoreLogo name={params.storeName} logoUrl={params.logoUrl} />
        <div>
          <p className="muted">Secure checkout</p>
          <h1>{params.storeName}</h1>
        </div>
      </header>
      {signature.kind === 'verified' && <SignedBadge />}
      <UniversalForm
        params={params}
        {...(signature.kind === 'unsigned' ? {} : { signedLink: link })}
        onCreated={(orderId) => {
          setCreated(true);
          void navigate({ to: '/universal-payment/$orderId', params: { orderId } });
        }}
      />
      <PoweredBy />
    </main>
  );
}
