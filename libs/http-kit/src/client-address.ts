// Who is on the other end of a request (docs/security.md#limits): the one place the kit takes a client's address
// from, for `ctx.ip` and the rate limits. It is the socket's peer, unless trusted proxies are configured
// (HttpAppOptions.trustedProxies, set as express's `trust proxy`): then the address X-Forwarded-For names just
// before the last trusted hop, so a caller that is not one of those proxies cannot choose it.

import type { Request } from 'express';
import ipaddr from 'ipaddr.js';

/** How a client's address looks when the socket gave none (a destroyed connection). */
const UNKNOWN = 'unknown';

/**
 * An address as one spelling: an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`, what a dual-stack server reports
 * for an IPv4 peer) as plain IPv4, IPv6 in its shortest form; anything unparsable as given.
 */
export function normalAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  return ipaddr.process(address).toString();
}

/** The client's address of an express request: `req.ip` honours the app's `trust proxy` and nothing else. */
export function clientAddress(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress;
  return address ? normalAddress(address) : UNKNOWN;
}

/**
 * What a rate limit (or a failed-login count) takes as one client: an IPv4 address, or the /64 network of an IPv6
 * one, since whoever holds an IPv6 address usually holds its whole /64 and could rotate through it.
 */
export function addressKey(address: string): string {
  const normal = normalAddress(address);
  if (!ipaddr.IPv6.isValid(normal) || ipaddr.IPv4.isValid(normal)) return normal;
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${normal}/64`).toString()}/64`;
}
