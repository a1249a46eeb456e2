// The relayer's pure rules: the short capped wait of a wallet waiting for it, and the alert lines
// a status raises (the same lines `GET /api/health` lists and the worker logs once per crossing).
import { describe, expect, test } from 'bun:test';
import { backoffDelayMs } from '../loops/backoff.ts';
import { FORWARD_GAS, type RelayerStatus, relayerAlerts } from './relayer.ts';

describe('the wait for the relayer (backoffDelayMs)', () => {
  test('doubles from the base and stays short', () => {
    expect([1, 2, 3, 4, 5, 10].map((n) => backoffDelayMs(n, 2000, 10_000))).toEqual([
      2000, 4000, 8000, 10_000, 10_000, 10_000,
    ]);
  });
});

describe('relayerAlerts', () => {
  const healthy: RelayerStatus = {
    address: '0x00000000000000000000000000000000000000aa',
    balanceWei: String(10n ** 18n),
    balanceEth: '1',
    minBalanceWei: String(50n * FORWARD_GAS * 10n ** 9n),
    minForwards: 50,
    belowThreshold: false,
    waitingWallets: 0,
    oldestForwardingLagSeconds: 30,
    lagAlertSeconds: 120,
  };

  test('none while all is well', () => {
    expect(relayerAlerts(healthy)).toEqual([]);
  });

  test('one line per alert: low balance, wallets waiting, forwarding lag', () => {
    const alerts = relayerAlerts({
      ...healthy,
      balanceWei: String(10n ** 15n),
      belowThreshold: true,
      waitingWallets: 3,
      oldestForwardingLagSeconds: 121,
    });
    expect(alerts.map((a) => a.kind)).toEqual(['balance', 'waiting', 'lag']);
    expect(alerts.map((a) => a.text)).toEqual([
      'relayer 0x00000000000000000000000000000000000000aa holds 0.001 ETH, below 0.0055 ETH ' +
        '(50 forwards at the current gas price): fund it',
      '3 paid order(s) waiting for the relayer to forward them',
      'the oldest paid order has waited 121 s to be forwarded (alert above 120 s)',
    ]);
  });

  test('an unknown balance (chain down) raises no balance alert of its own', () => {
    expect(
      relayerAlerts({ ...healthy, balanceWei: null, minBalanceWei: null, belowThreshold: null }),
    ).toEqual([]);
  });
});
