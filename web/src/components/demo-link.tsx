// The 'Try Live Demo' link of the landing page and the docs (docs/screens.md#landing-page). Its
// payee is the demo payout address GET /api/health names (DEMO_PAYOUT_ADDRESS, an address the
// platform controls), never a burn address, and a note says what a demo payment is: test money on a
// test network, real USDC to the platform on Base mainnet. A deployment without one offers no live
// demo.
import { buildDemoCheckoutUrl, DEMO_ITEM_PRICE_USDC } from '@store/shared';
import { useMemo, useState } from 'react';
import { APP_NAME } from '../app-meta.ts';
import { type ChainInfo, useChainInfo } from '../lib/chain-info.ts';

/** The demo link (undefined until the API has said who the demo pays) and its note. */
export interface DemoCheckout {
  url: string | undefined;
  note: string;
}

/** What a demo payment is on this chain. */
export function demoNote(chain: ChainInfo): string {
  if (!chain.demoPayout)
    return chain.loaded
      ? 'There is no live demo on this site.'
      : 'The live demo is unavailable until the payment service answers.';
  return chain.testMode
    ? `Demo on ${chain.networkName}, a test network: pay with test USDC, no real money.`
    : `The demo is a real payment: ${DEMO_ITEM_PRICE_USDC} USDC on ${chain.networkName}, paid to ${APP_NAME}.`;
}

/** The demo link; one order id per visit (the link only navigates). */
export function useDemoCheckout(base?: string): DemoCheckout {
  const chain = useChainInfo();
  // Note: the draws are kept so the order id stays the same when the payee arrives.
  const [started] = useState(() => ({
    now: Date.now(),
    draws: Array.from({ length: 16 }, () => Math.random()),
  }));
  const url = useMemo(() => {
    let next = 0;
    const replay = () => started.draws[next++ % started.draws.length] ?? 0;
    return chain.demoPayout
      ? buildDemoCheckoutUrl(started.now, replay, {
          paymentAddress: chain.demoPayout,
          ...(base ? { base } : {}),
        })
      : undefined;
  }, [chain.demoPayout, base, started]);
  return { url, note: demoNote(chain) };
}

/** 'Try Live Demo' as a link, or a disabled button until the payee is known. */
export function DemoButton(props: { demo: DemoCheckout; className: string }) {
  return props.demo.url ? (
    <a href={props.demo.url} className={props.className}>
      Try Live Demo
    </a>
  ) : (
    <button type="button" className={props.className} disabled>
      Try Live Demo
    </button>
  );
}
