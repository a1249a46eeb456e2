// Browser wallets the page can pay from: EIP-6963 discovery (each wallet extension announces
// itself, so several can coexist) with the legacy `window.ethereum` (EIP-1193) as the fallback.
import { useEffect, useState } from 'react';

/** An EIP-1193 provider: the one method the payment needs. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown }): Promise<unknown>;
}

/** A wallet found in this browser. */
export interface InjectedWallet {
  /** EIP-6963 uuid, or 'window.ethereum' for the fallback. */
  id: string;
  name: string;
  /** The wallet's icon (a data: URI), when it announced one. */
  icon?: string;
  provider: Eip1193Provider;
}

interface AnnounceDetail {
  info?: { uuid?: string; name?: string; icon?: string };
  provider?: Eip1193Provider;
}

function isProvider(value: unknown): value is Eip1193Provider {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { request?: unknown }).request === 'function'
  );
}

/**
 * The wallets in this browser, updated as they announce themselves; empty when there is none.
 * Note: window.ethereum is offered only when no wallet announced itself (it is usually one of
 * them under another name).
 */
export function useInjectedWallets(): InjectedWallet[] {
  const [announced, setAnnounced] = useState<InjectedWallet[]>([]);
  const [fallback, setFallback] = useState<InjectedWallet>();
  useEffect(() => {
    const onAnnounce = (event: Event) => {
      const detail = (event as CustomEvent<AnnounceDetail>).detail;
      if (!detail?.info?.uuid || !isProvider(detail.provider)) return;
      const wallet: InjectedWallet = {
        id: detail.info.uuid,
        name: detail.info.name || 'Browser wallet',
        ...(detail.info.icon?.startsWith('data:image/') ? { icon: detail.info.icon } : {}),
        provider: detail.provider,
      };
      setAnnounced((known) =>
        known.some((other) => other.id === wallet.id) ? known : [...known, wallet],
      );
    };
    window.addEventListener('eip6963:announceProvider', onAnnounce);
    window.dispatchEvent(new Event('eip6963:requestProvider'));
    const legacy = (window as { ethereum?: unknown }).ethereum;
    if (isProvider(legacy)) {
      setFallback({ id: 'window.ethereum', name: 'Browser wallet', provider: legacy });
    }
    return () => window.removeEventListener('eip6963:announceProvider', onAnnounce);
  }, []);
  if (announced.length > 0) return announced;
  return fallback ? [fallback] : [];
}
