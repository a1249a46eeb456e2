// Until GET /api/health has said which chain the deployment settles on, pages name no network:
// no "Base" on a local chain while loading (the landing's eyebrow read "USDC payments on Base"),
// no chain id, token, explorer or on-ramp. Once answered, the deployment's own chain is named.
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '../test-dom.ts';
import { UNKNOWN_NETWORK_NAME } from './chain-info.ts';

const LOCAL = { chainId: 31337, usdc: '0x5FbDB2315678afecb367f032d93F642f64180aa3' };

/** A /api/health that answers only when told to (every other path: 404). */
function slowHealth() {
  let answer: (body: unknown) => void = () => {};
  const answered = new Promise<Response>((resolve) => {
    answer = (body) => resolve(Response.json(body));
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      String(url).endsWith('/api/health')
        ? answered
        : Response.json({ error: 'not found' }, { status: 404 }),
    ),
  );
  return (body: unknown) => act(async () => answer(body));
}

/** Shows what a page reads from the hook (loaded afresh per test). */
function Probe(props: { useChain: () => unknown }) {
  return <p>{JSON.stringify(props.useChain())}</p>;
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
  vi.unstubAllGlobals();
  // Note: the answer is read once per page load; each test loads the modules afresh.
  vi.resetModules();
});

describe('the chain before the API has answered', () => {
  it('is unknown: no name, chain id, token, explorer or on-ramp of Base, then the local chain', async () => {
    const answer = slowHealth();
    const { useChainInfo } = await import('./chain-info.ts');
    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    cleanup = () => {
      act(() => root.unmount());
      container.remove();
    };
    await act(async () => root.render(<Probe useChain={useChainInfo} />));
    const chain = () => JSON.parse(container.textContent ?? '{}');
    expect(chain()).toMatchObject({
      chainId: 0,
      usdc: '',
      networkName: UNKNOWN_NETWORK_NAME,
      loaded: false,
    });
    expect(chain().explorerUrl).toBeUndefined();
    expect(chain().onrampNetwork).toBeUndefined();
    await answer({ chain: LOCAL });
    await waitFor(() =>
      expect(chain()).toMatchObject({ ...LOCAL, networkName: 'Local chain 31337', loaded: true }),
    );
  });

  it('the landing page names no Base while loading, and the local chain once known', async () => {
    const answer = slowHealth();
    const { renderAt } = await import('../test-utils.tsx');
    const view = await renderAt('/');
    cleanup = view.unmount;
    const page = view.container;
    expect(page.querySelector('h1')?.textContent).toBe('Accept crypto payments in 60 seconds');
    expect(page.textContent).not.toMatch(/\bBase\b/);
    expect(page.querySelector('.eyebrow')?.textContent).toBe(
      `USDC payments on ${UNKNOWN_NETWORK_NAME}`,
    );
    await answer({ chain: LOCAL });
    await waitFor(() =>
      expect(page.querySelector('.eyebrow')?.textContent).toBe(
        'USDC payments on Local chain 31337',
      ),
    );
    expect(page.textContent).not.toMatch(/\bBase\b/);
  }, 60_000);
});
