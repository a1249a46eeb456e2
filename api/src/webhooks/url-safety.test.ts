// The SSRF rules of webhook URLs, without a network (IP literals and localhost only): which
// addresses are public, every spelling of a private one, and the connect-time lookup.
import { describe, expect, test } from 'bun:test';
import { checkWebhookUrl, checkWebhookUrlForm, isPublicAddress, safeLookup } from './url-safety.ts';

describe('isPublicAddress', () => {
  // One address inside each special-purpose IPv4 range (IANA registry), at both of its ends.
  const ipv4Special = {
    'this network 0/8': ['0.0.0.0', '0.255.255.255'],
    'private 10/8': ['10.0.0.0', '10.1.2.3', '10.255.255.255'],
    'shared 100.64/10': ['100.64.0.1', '100.127.255.254'],
    'loopback 127/8': ['127.0.0.1', '127.255.255.254'],
    'link-local 169.254/16': ['169.254.169.254', '169.254.0.1'],
    'private 172.16/12': ['172.16.0.1', '172.31.255.255'],
    'IETF protocol assignments 192.0.0/24': ['192.0.0.1', '192.0.0.170'],
    'documentation 192.0.2/24': ['192.0.2.1'],
    'AS112-v4 192.31.196/24': ['192.31.196.1'],
    'AMT 192.52.193/24': ['192.52.193.1'],
    '6to4 relay 192.88.99/24': ['192.88.99.1'],
    'private 192.168/16': ['192.168.1.1', '192.168.255.255'],
    'AS112 delegation 192.175.48/24': ['192.175.48.1'],
    'benchmarking 198.18/15': ['198.18.0.1', '198.19.255.255'],
    'documentation 198.51.100/24': ['198.51.100.7'],
    'documentation 203.0.113/24': ['203.0.113.9'],
    'multicast 224/4': ['224.0.0.1', '239.255.255.250'],
    'reserved 240/4': ['240.0.0.1', '254.1.2.3'],
    broadcast: ['255.255.255.255'],
  };
  test.each(Object.entries(ipv4Special))('refuses IPv4 %s', (_, addresses) => {
    for (const address of addresses) expect(isPublicAddress(address)).toBe(false);
  });

  // Everything outside 2000::/3, and the special-purpose ranges inside it.
  const ipv6Refused = {
    'unspecified ::': ['::', '0:0:0:0:0:0:0:0'],
    'loopback ::1': ['::1', '0:0:0:0:0:0:0:1'],
    'IPv4-compatible ::a.b.c.d': ['::127.0.0.1', '::7f00:1', '::8.8.8.8', '::808:808'],
    'discard 100::/64': ['100::1'],
    'local-use NAT64 64:ff9b:1::/48': ['64:ff9b:1::a00:1', '64:ff9b:1::808:808'],
    'IETF protocol assignments 2001::/23': ['2001:1::1', '2001:2::1', '2001:1ff::1'],
    'Teredo 2001::/32': ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::7f00:1'],
    'documentation 2001:db8::/32': ['2001:db8::1', '2001:db8:ffff::1'],
    '6to4 2002::/16': ['2002:7f00:1::', '2002:c0a8:101::1', '2002:808:808::1'],
    'AS112 delegation 2620:4f:8000::/48': ['2620:4f:8000::1'],
    'documentation 3fff::/20': ['3fff::1', '3fff:fff::1'],
    'SRv6 SIDs 5f00::/16': ['5f00::1'],
    'outside 2000::/3': ['1fff:ffff::1', '4000::1', 'e000::1'],
    'site-local fec0::/10': ['fec0::1', 'FEC0::1', 'feff::1'],
    'unique local fc00::/7': ['fc00::1', 'fd12:3456::1'],
    'link-local fe80::/10': ['fe80::1', 'febf::1'],
    'multicast ff00::/8': ['ff02::1', 'ff0e::101'],
  };
  test.each(Object.entries(ipv6Refused))('refuses IPv6 %s', (_, addresses) => {
    for (const address of addresses) expect(isPublicAddress(address)).toBe(false);
  });

  test('judges IPv4-mapped and NAT64 (64:ff9b::/96) addresses by the IPv4 they carry', () => {
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::FFFF:7F00:1',
      '0:0:0:0:0:ffff:127.0.0.1',
      '0000:0000:0000:0000:0000:ffff:7f00:0001',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:a9fe:a9fe',
      '::ffff:0.0.0.0',
      '::ffff:255.255.255.255',
      '64:ff9b::10.0.0.1',
      '64:ff9b::7f00:1',
      '64:FF9B::A9FE:A9FE',
      '64:ff9b::192.168.1.1',
      '64:ff9b::100.64.0.1',
    ])
      expect(isPublicAddress(address)).toBe(false);
    for (const address of [
      '::ffff:8.8.8.8',
      '::ffff:808:808',
      '64:ff9b::8.8.8.8',
      '64:ff9b::101:101',
    ])
      expect(isPublicAddress(address)).toBe(true);
  });

  test('refuses zone ids and anything that is not a plain IP address', () => {
    for (const address of [
      'fe80::1%eth0',
      '2606:4700:4700::1111%eth0',
      '2130706433',
      '0x7f.1',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '08.8.8.8',
      '[::1]',
      '8.8.8.8.',
      'localhost',
      'not an address',
      '',
    ])
      expect(isPublicAddress(address)).toBe(false);
  });

  // Public unicast addresses that must keep working.
  const allowed = [
    '8.8.8.8',
    '1.1.1.1',
    '93.184.215.14',
    '172.32.0.1',
    '100.128.0.1',
    '192.0.1.1',
    '198.20.0.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:81c::200e',
    '2620:fe::fe',
    '2001:200::1',
    '3ffe::1',
    '2400:cb00:2048:1::c629:d7a2',
  ];
  test.each(allowed)('accepts public %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkWebhookUrl', () => {
  test('https to a public address passes; anything else is refused with a reason', async () => {
    expect(await checkWebhookUrl('https://93.184.215.14/hooks', false)).toBeNull();
    expect(await checkWebhookUrl('https://[2606:4700:4700::1111]/hooks', false)).toBeNull();
    expect(await checkWebhookUrl('http://93.184.215.14/hooks', false)).toMatch(/https/);
    expect(await checkWebhookUrl('https://127.0.0.1/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://[::1]/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://localhost/hooks', false)).toMatch(/private/);
    expect(await checkWebhookUrl('https://user:pw@93.184.215.14/', false)).toMatch(/user name/);
    expect(await checkWebhookUrl('not a url', false)).toMatch(/absolute/);
  });

  // Every spelling the WHATWG URL parser turns into a loopback, private or special address.
  test.each([
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0x7f.1/',
    'https://0177.0.0.1/',
    'https://127.1/',
    'https://127.0.0.1./',
    'https://%31%32%37.0.0.1/',
    'https://0/',
    'https://4294967295/',
    'https://[::ffff:7f00:1]/',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/',
    'https://[::FFFF:127.0.0.1]/',
    'https://[::127.0.0.1]/',
    'https://[fec0::1]/',
    'https://[2002:7f00:1::]/',
    'https://[2002:808:808::]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b:1::808:808]/',
    'https://[2001::7f00:1]/',
    'https://[3fff::1]/',
    'https://[5f00::1]/',
  ])('refuses %s', async (url) => {
    expect(await checkWebhookUrl(url, false)).toMatch(/private, loopback or reserved/);
  });

  test('a zone id is no valid URL host', async () => {
    expect(await checkWebhookUrl('https://[fe80::1%25eth0]/', false)).toMatch(/absolute/);
  });

  test('local mode allows http and loopback, so integrators can test on their machine', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:4000/hooks', true)).toBeNull();
    expect(checkWebhookUrlForm('ftp://127.0.0.1/', true)).toMatch(/https/);
  });
});

describe('safeLookup', () => {
  const resolve = (allowPrivate: boolean, host: string, all: boolean) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown }>((done) =>
      safeLookup(allowPrivate)(host, { all }, (error, address) => done({ error, address })),
    );

  test('refuses a host that resolves to a private address at connect time', async () => {
    const { error } = await resolve(false, 'localhost', false);
    expect(error?.code).toBe('EPRIVATEADDRESS');
    expect(error?.message).toMatch(/localhost resolves to a private/);
  });

  test('local mode connects to it', async () => {
    const { error, address } = await resolve(true, 'localhost', false);
    expect(error).toBeNull();
    expect(isPublicAddress(address as string)).toBe(false);
    const all = await resolve(true, 'localhost', true);
    expect(Array.isArray(all.address) && all.address.length > 0).toBe(true);
  });
});
