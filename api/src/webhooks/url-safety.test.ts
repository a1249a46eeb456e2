// The SSRF rules of webhook URLs, without a network (IP literals and localhost only).
import { describe, expect, test } from 'bun:test';
import { checkWebhookUrl, checkWebhookUrlForm, isPublicAddress } from './url-safety.ts';

describe('isPublicAddress', () => {
  test('refuses loopback, private, link-local, shared, reserved and multicast ranges', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::10.0.0.1',
      'not an address',
    ])
      expect(isPublicAddress(address)).toBe(false);
  });

  test('accepts public IPv4 and IPv6 addresses', () => {
    for (const address of [
      '93.184.215.14',
      '8.8.8.8',
      '172.32.0.1',
      '2606:4700::1111',
      '::ffff:8.8.8.8',
    ])
      expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  test('https to a public address passes; anything else is refused with a reason', async () => {
    expect(await checkWebhookUrl('https://93.184.215.14/hooks', false)).toBeNull();
    expect(await checkWebhookUrl('http://93.184.215.14/hooks', false)).toMatch(/https/);
    expect(await checkWebhookUrl('https://127.0.0.1/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://[::1]/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://localhost/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://user:pw@93.184.215.14/', false)).toMatch(/user name/);
    expect(await checkWebhookUrl('not a url', false)).toMatch(/absolute/);
  });

  test('local mode allows http and loopback, so integrators can test on their machine', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', true)).toBeNull();
    expect(checkWebhookUrlForm('ftp://127.0.0.1/', true)).toMatch(/https/);
  });
});
