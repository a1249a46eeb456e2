// Configuration is validated once at start, with messages that name the missing setting.
import { describe, expect, test } from 'bun:test';
import { loadApiConfig, loadWorkerConfig } from './config.ts';

const api = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  RPC_URL: 'http://127.0.0.1:8545',
  CHAIN_ID: '31337',
  USDC_ADDRESS: '0x72bb9c7ffbE2Ed234e53bc64862DdA6d9fFF333b',
  PAYMENT_XPUB:
    'xpub6DbwjKhyVPD8kXtzKzNRShYDSpUd4L6x5Fs5pFzvyU7bdyGa2BDFYGjWy8Nop4nvbSvGfLD7bq8CB8MdFt4ViqtrWMzAcwo9XgznEWWYkah',
  RELAYER_ADDRESS: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  TREASURY_ADDRESS: '0x4edf64B05dE752fa6F1FD2701D20D34cf7ec1D5E',
};

describe('loadApiConfig', () => {
  test('reads a complete local configuration with its defaults', () => {
    const config = loadApiConfig(api);
    expect(config.port).toBe(3000);
    expect(config.confirmations).toBe(2);
    expect(config.paymentWindowHours).toBe(168);
    expect(config.uploadLimits).toEqual({ timeMs: 5000, memoryMb: 1024 });
    expect(config.uploadsPerHour).toBe(120);
    expect(config.chain).toEqual({
      rpcUrl: api.RPC_URL,
      chainId: 31337,
      usdc: api.USDC_ADDRESS as `0x${string}`,
    });
  });

  test("names the demo link's payee: configured, anvil's account 9 in local mode, else none", () => {
    const payee = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    expect(loadApiConfig({ ...api, DEMO_PAYOUT_ADDRESS: payee }).demoPayoutAddress).toBe(payee);
    expect(loadApiConfig({ ...api, LOCAL_MODE: 'true' }).demoPayoutAddress).toBe(
      '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
    );
    expect(loadApiConfig(api).demoPayoutAddress).toBeNull();
    expect(() => loadApiConfig({ ...api, DEMO_PAYOUT_ADDRESS: '0xdead' })).toThrow(
      '`DEMO_PAYOUT_ADDRESS` must be an address',
    );
  });

  test('on Base, Circle USDC is the default token', () => {
    const { USDC_ADDRESS: _, ...rest } = api;
    expect(loadApiConfig({ ...rest, CHAIN_ID: '8453' }).chain.usdc).toBe(
      '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    );
    expect(loadApiConfig({ ...rest, CHAIN_ID: '84532' }).chain.usdc).toBe(
      '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    );
  });

  test('names every missing setting', () => {
    expect(() => loadApiConfig({ ...api, DATABASE_URL: undefined, RPC_URL: '' })).toThrow(
      /`RPC_URL` is not configured[\s\S]*`DATABASE_URL` is not configured/,
    );
  });

  test('refuses a local chain without a USDC address', () => {
    const { USDC_ADDRESS: _, ...rest } = api;
    expect(() => loadApiConfig(rest)).toThrow('`USDC_ADDRESS` is not configured');
  });

  test('refuses an unsupported chain and malformed values', () => {
    expect(() => loadApiConfig({ ...api, CHAIN_ID: '1' })).toThrow('`CHAIN_ID` must be 8453');
    expect(() => loadApiConfig({ ...api, PORT: 'eighty' })).toThrow(
      '`PORT` must be a whole number',
    );
    expect(() => loadApiConfig({ ...api, TREASURY_ADDRESS: '0x12' })).toThrow(
      '`TREASURY_ADDRESS` must be an address',
    );
    expect(() => loadApiConfig({ ...api, PAYMENT_XPUB: 'xprv-secret' })).toThrow(
      '`PAYMENT_XPUB` must be an extended public key',
    );
  });
});

describe('loadWorkerConfig', () => {
  test('needs the seed and the relayer key, which the API never reads', () => {
    expect(() => loadWorkerConfig(api)).toThrow(
      /`PAYMENT_MNEMONIC` is not configured[\s\S]*`RELAYER_PRIVATE_KEY` is not configured/,
    );
  });
});
