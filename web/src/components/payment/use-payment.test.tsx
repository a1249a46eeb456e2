import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dismissToast, useCurrentToast } from '../../lib/toast.ts';
import { type PaymentSession, usePayment } from './use-payment.ts';

const WALLET = {
  address: '0xAbC0000000000000000000000000000000000001',
  expectedAmount: '88.59',
  chain: 'base',
  expiredAt: '2099-01-01T00:00:00.000Z',
};
const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal('fetch', fetchMock);

type Answer = { status: number; body: unknown };
let walletAnswer: Answer;
let statusAnswers: Answer[];
const json = (answer: Answer) =>
  new Response(JSON.stringify(answer.body), { status: answer.status });

let session: PaymentSession;
let toastTitle: string | undefined;
let root: Root;
let container: HTMLDivElement;
const onConfirmed = vi.fn();

function Probe(props: { kind: 'store' | 'universal'; orderStatus?: string }) {
  session = usePayment({
    orderId: 'order-1',
    orderStatus: props.orderStatus ?? 'pending',
    kind: props.kind,
    onConfirmed,
  });
  toastTitle = useCurrentToast()?.title;
  return null;
}

async function mount(kind: 'store' | 'universal', orderStatus?: string) {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  await act(async () => root.render(<Probe kind={kind} orderStatus={orderStatus} />));
  await act(async () => {});
}

beforeEach(() => {
  vi.useFakeTimers();
  walletAnswer = { status: 200, body: { paymentWallet: WALLET } };
  statusAnswers = [];
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (url.includes('assign-payment-wallet')) return json(walletAnswer);
    const next = statusAnswers.shift() ?? {
      status: 200,
      body: { paymentDetected: false, status: 'waiting' },
    };
    return json(next);
  });
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  act(() => dismissToast());
  fetchMock.mockReset();
  onConfirmed.mockReset();
  vi.useRealTimers();
});

const statusCalls = () =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('check-payment-status')).length;

describe('payment flow (docs/payments.md#what-the-shopper-sees)', () => {
  it('requests the wallet, then waits with the server expiry', async () => {
    await mount('store');
    expect(session.wallet?.address).toBe(WALLET.address);
    expect(session.status).toBe('waiting');
    expect(session.expiredAt).toBe(WALLET.expiredAt);
    const [, init] = fetchMock.mock.calls[0] ?? [];
    const headers = (init?.headers ?? {}) as Record<string, string>;
    expect(headers['idempotency-key']).toBeTruthy();
  });

  it('fails with the Payment Error toast when the wallet cannot be assigned', async () => {
    walletAnswer = { status: 500, body: { error: { message: 'boom' } } };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await mount('store');
    expect(session.status).toBe('failed');
    expect(toastTitle).toBe('Payment Error');
  });

  it('polls every 10 s and confirms, then hands over after 2 s', async () => {
    await mount('store');
    statusAnswers = [
      { status: 200, body: { paymentDetected: false, status: 'waiting' } },
      { status: 200, body: { paymentDetected: true, status: 'detected_pending_processing' } },
    ];
    await act(async () => vi.advanceTimersByTime(9_999));
    expect(statusCalls()).toBe(0);
    await act(async () => vi.advanceTimersByTime(1));
    expect(statusCalls()).toBe(1);
    expect(session.status).toBe('waiting');
    await act(async () => vi.advanceTimersByTime(10_000));
    expect(session.status).toBe('confirmed');
    await act(async () => vi.advanceTimersByTime(1_999));
    expect(onConfirmed).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(onConfirmed).toHaveBeenCalledWith('poll');
    // No more polling once confirmed.
    await act(async () => vi.advanceTimersByTime(30_000));
    expect(statusCalls()).toBe(2);
  });

  it('a manual check that finds nothing says so and goes back to waiting', async () => {
    await mount('universal');
    await act(async () => session.checkNow());
    expect(toastTitle).toBe('Payment not detected yet');
    expect(session.status).toBe('waiting');
  });

  it('a manual check that finds part of the amount asks for the rest, not "not detected"', async () => {
    await mount('universal');
    statusAnswers = [
      {
        status: 200,
        body: {
          paymentDetected: false,
          status: 'underpaid',
          receivedAmount: '50.000000',
          expectedAmount: '88.59',
          expiredAt: '2099-01-01T00:00:00.000Z',
        },
      },
    ];
    await act(async () => session.checkNow());
    expect(toastTitle).toBe('Part of the payment arrived');
    expect(session.status).toBe('waiting');
  });

  it('a manual check that fails says so and goes back to waiting', async () => {
    await mount('universal');
    statusAnswers = [{ status: 503, body: { error: { message: 'indexer down' } } }];
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await act(async () => session.checkNow());
    expect(toastTitle).toBe('Unable to check payment status');
    expect(session.status).toBe('waiting');
  });

  it('a manual check that finds the payment confirms it as manual', async () => {
    await mount('universal');
    statusAnswers = [{ status: 200, body: { paymentDetected: false, status: 'received' } }];
    await act(async () => session.checkNow());
    expect(session.status).toBe('confirmed');
    await act(async () => vi.advanceTimersByTime(2_000));
    expect(onConfirmed).toHaveBeenCalledWith('manual');
  });

  it('the store page fails at expiry and Try Again asks for the wallet again', async () => {
    await mount('store');
    await act(async () => session.expire());
    expect(session.status).toBe('failed');
    await act(async () => session.tryAgain());
    await act(async () => {});
    expect(session.status).toBe('waiting');
    expect(
      fetchMock.mock.calls.filter(([url]) => String(url).includes('assign-payment-wallet')),
    ).toHaveLength(2);
  });

  it('the universal page asks for a wallet again on Try Again after a wallet failure', async () => {
    walletAnswer = { status: 503, body: { error: { message: 'no wallet' } } };
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await mount('universal');
    expect(session.status).toBe('failed');
    walletAnswer = { status: 200, body: { paymentWallet: WALLET } };
    await act(async () => session.tryAgain());
    await act(async () => {});
    expect(session.wallet?.address).toBe(WALLET.address);
    expect(session.status).toBe('waiting');
    const walletCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url).includes('assign-payment-wallet'));
    expect(walletCalls()).toHaveLength(2);
    // With a wallet, Try Again only returns to waiting: the same address stays.
    await act(async () => session.tryAgain());
    await act(async () => {});
    expect(walletCalls()).toHaveLength(2);
  });

  it('an order that is already paid is confirmed without a wallet', async () => {
    await mount('store', 'paid');
    expect(session.status).toBe('confirmed');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
