/** The callback address guard: only public addresses may be called back. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { Resolver } from '../config.js';

/**
 * Only globally routable unicast addresses may be called back. ipaddr.js names every special
 * range (loopback, private, linkLocal, carrierGradeNat, uniqueLocal, multicast, reserved,
 * 6to4, rfc6052/NAT64, teredo ...); IPv4-mapped IPv6 is unwrapped first so ::ffff:127.0.0.1
 * is judged as 127.0.0.1, and the IPv4-compatible ::/96 is refused whole.
 */
export function addressAllowed(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  // ::/96 is the deprecated IPv4-compatible form (RFC 4291 §2.5.5.1): ::7f00:1 is 127.0.0.1, yet ipaddr.js calls it unicast.
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)) return false;
  return ip.range() === 'unicast';
}

/**
 * The IP literal a URL names, when it names one that is not public. IP literals never go
 * through DNS lookup, so the guard in guardedLookup does not see them: they are checked here.
 */
export function refusedLiteral(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) && !addressAllowed(host) ? host : null;
}

export class CallbackAddressError extends Error {
  readonly code = 'ERR_CALLBACK_ADDRESS';
  constructor(host: string, address: string) {
    super(`callback host ${host} resolves to ${address}, which is not a public address`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type LookupFunction = (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => void;

/** How a host name becomes addresses: the system resolver, or one a test supplies. */
const systemResolver: Resolver = (hostname, done) => dnsLookup(hostname, { all: true }, done);

/**
 * A dns.lookup replacement for undici's connector: resolves, refuses the host if any address
 * is not public, and hands back only checked addresses, so the socket connects to exactly
 * what was checked (no second resolution for DNS rebinding to exploit).
 */
export function guardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => resolve(hostname, (err, all) => {
    // Checked before the list is read: a failed dns.lookup passes no list at all.
    if (err) return callback(err, []);
    const found = all ?? [];
    const addresses = options.family ? found.filter((a) => a.family === options.family) : found;
    const bad = addresses.find((a) => !addressAllowed(a.address));
    if (bad) return callback(new CallbackAddressError(hostname, bad.address), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, first.address, first.family);
  });
}

/** A callback URL for the log: any user name and password in it replaced, so they never reach a log file. */
export function redactCallback(callback: string): string {
  if (!URL.canParse(callback)) return callback;
  const url = new URL(callback);
  if (url.username === '' && url.password === '') return callback;
  url.username = 'redacted';
  url.password = '';
  return url.href;
}
