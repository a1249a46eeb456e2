// The client's address: the socket's peer, X-Forwarded-For only behind a trusted proxy, a fixed
// address without a socket; and the bucket limits count by (IPv6 by /64).
import { describe, expect, test } from 'bun:test';
import { clientAddress, clientBucket, UNKNOWN_CLIENT_ADDRESS } from './client-address.ts';

const request = (forwarded?: string) =>
  new Request('http://localhost/api/auth/sign-in', {
    headers: forwarded ? { 'x-forwarded-for': forwarded } : {},
  });
const server = (address: string | null) => ({
  requestIP: () => (address ? { address } : null),
});

describe('clientAddress', () => {
  test("is the socket's peer, whatever X-Forwarded-For says, unless the proxy is trusted", () => {
    const source = { request: request('203.0.113.9'), server: server('198.51.100.4') };
    expect(clientAddress(source, { trustProxy: false })).toBe('198.51.100.4');
    expect(clientAddress(source, { trustProxy: true })).toBe('203.0.113.9');
  });

  test('behind a trusted proxy: the first address of the list; the peer when it is no address', () => {
    const peer = server('10.0.0.2');
    const of = (forwarded: string) =>
      clientAddress({ request: request(forwarded), server: peer }, { trustProxy: true });
    expect(of(' 203.0.113.9 , 10.0.0.1')).toBe('203.0.113.9');
    expect(of('2001:DB8::1, 10.0.0.1')).toBe('2001:db8::1');
    expect(of('unknown, 10.0.0.1')).toBe('10.0.0.2');
    expect(of('x'.repeat(10_000))).toBe('10.0.0.2');
  });

  test('without a socket (app.handle, tests) every request has the same fixed address', () => {
    expect(clientAddress({ request: request(), server: null }, { trustProxy: false })).toBe(
      UNKNOWN_CLIENT_ADDRESS,
    );
    expect(clientAddress({ request: request() }, { trustProxy: true })).toBe('0.0.0.0');
    expect(clientAddress({ request: request(), server: server(null) }, { trustProxy: false })).toBe(
      '0.0.0.0',
    );
  });

  test('an IPv4-mapped IPv6 peer reads as its IPv4 address', () => {
    const source = { request: request(), server: server('::ffff:192.0.2.7') };
    expect(clientAddress(source, { trustProxy: false })).toBe('192.0.2.7');
  });
});

describe('clientBucket', () => {
  test.each([
    ['192.0.2.7', '192.0.2.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:abcd::1', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    ['0.0.0.0', '0.0.0.0'],
  ])('%s -> %s', (address, bucket) => {
    expect(clientBucket(address)).toBe(bucket);
  });
});
