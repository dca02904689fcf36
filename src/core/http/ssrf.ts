import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { remembered } from '../memo.ts';

/**
 * The SSRF guard of every outbound call (webhooks, merchants, providers; core/http/policy.ts holds the
 * policy). A destination must reach a public address. Private addresses (loopback, private,
 * link-local) are reachable only by a host the operator named (`OUTBOUND_ALLOWED_PRIVATE_HOSTS`), or
 * on a developer's machine (`WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`, refused in production). Cloud
 * metadata addresses and the other special-purpose ranges are never reachable, whoever names them.
 *
 * The address is checked after DNS resolution, for every connection, and the connection then goes
 * to that checked address (client.ts pins it), so a name that re-resolves (DNS rebinding) cannot
 * reach inside. Parsing and range matching are ipaddr.js's; the ranges are IANA's special-purpose
 * address registries (RFC 6890 and its updates), kept below in one table.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'reserved';

type Refused = Exclude<AddressClass, 'public'>;

/** [class, CIDR]. The first match wins: metadata sits inside the private and link-local ranges. */
const ranges: [Refused, string][] = [
  // Cloud metadata services (AWS, ECS, Alibaba, AWS over IPv6, Oracle, ...): credentials live there.
  ['metadata', '169.254.169.254/32'],
  ['metadata', '169.254.170.2/32'],
  ['metadata', '169.254.169.123/32'],
  ['metadata', '100.100.100.200/32'],
  ['metadata', '192.0.0.192/32'],
  ['metadata', 'fd00:ec2::254/128'],
  ['metadata', 'fd00:ec2::23/128'],
  // IANA IPv4 special-purpose registry.
  ['reserved', '0.0.0.0/8'], // "this network", RFC 791
  ['private', '10.0.0.0/8'], // RFC 1918
  ['private', '100.64.0.0/10'], // shared address space (carrier-grade NAT), RFC 6598
  ['loopback', '127.0.0.0/8'], // RFC 1122
  ['link_local', '169.254.0.0/16'], // RFC 3927
  ['private', '172.16.0.0/12'], // RFC 1918
  ['reserved', '192.0.0.0/24'], // IETF protocol assignments, RFC 6890
  ['reserved', '192.0.2.0/24'], // TEST-NET-1, RFC 5737
  ['reserved', '192.31.196.0/24'], // AS112-v4, RFC 7535
  ['reserved', '192.52.193.0/24'], // AMT, RFC 7450
  ['reserved', '192.88.99.0/24'], // deprecated 6to4 relay anycast, RFC 7526
  ['private', '192.168.0.0/16'], // RFC 1918
  ['reserved', '192.175.48.0/24'], // direct delegation AS112, RFC 7534
  ['reserved', '198.18.0.0/15'], // benchmarking, RFC 2544
  ['reserved', '198.51.100.0/24'], // TEST-NET-2, RFC 5737
  ['reserved', '203.0.113.0/24'], // TEST-NET-3, RFC 5737
  ['reserved', '224.0.0.0/4'], // multicast, RFC 5771
  ['reserved', '240.0.0.0/4'], // reserved, RFC 1112 (includes 255.255.255.255, limited broadcast)
  // IANA IPv6 special-purpose registry (embedded IPv4 forms are judged before this table).
  ['reserved', '::/128'], // unspecified, RFC 4291
  ['loopback', '::1/128'], // RFC 4291
  ['reserved', '::/96'], // IPv4-compatible (deprecated), RFC 4291 §2.5.5.1, when not embedding IPv4
  ['reserved', '::ffff:0:0/96'], // IPv4-mapped, RFC 4291 (only reached when not a valid IPv4)
  ['reserved', '::ffff:0:0:0/96'], // IPv4-translated (SIIT), RFC 2765 (only reached when not a valid IPv4)
  ['reserved', '64:ff9b:1::/48'], // local-use IPv4/IPv6 translation, RFC 8215
  ['reserved', '100::/64'], // discard-only, RFC 6666
  ['reserved', '100:0:0:1::/64'], // dummy IPv6 prefix, RFC 9780
  ['reserved', '2001::/23'], // IETF protocol assignments (Teredo, benchmarking, ORCHID...), RFC 2928
  ['reserved', '2001:db8::/32'], // documentation, RFC 3849
  ['reserved', '3fff::/20'], // documentation, RFC 9637
  ['reserved', '5f00::/16'], // segment routing SIDs, RFC 9602
  ['reserved', '2620:4f:8000::/48'], // direct delegation AS112, RFC 7534
  ['private', 'fc00::/7'], // unique local, RFC 4193
  ['link_local', 'fe80::/10'], // RFC 4291
  ['private', 'fec0::/10'], // site-local (deprecated), RFC 3879
  ['reserved', 'ff00::/8'], // multicast, RFC 4291
];

const parsedRanges = ranges.map(([kind, cidr]) => [kind, ipaddr.parseCIDR(cidr)] as const);

/** The IPv4 address an IPv6 address carries and stands for, if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const parts = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
  // IPv4-mapped ::ffff:a.b.c.d (RFC 4291 §2.5.5.2): the socket reaches the IPv4 address itself.
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  // IPv4-translated ::ffff:0:a.b.c.d (RFC 2765 §2.1): a stateless translator reaches the IPv4 address.
  if (address.match(ipaddr.parseCIDR('::ffff:0:0:0/96'))) return v4(parts[6]!, parts[7]!);
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): a translator reaches the IPv4 address.
  if (address.match(ipaddr.parseCIDR('64:ff9b::/96'))) return v4(parts[6]!, parts[7]!);
  // IPv4-compatible ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated; ::, ::1 excluded).
  if (address.match(ipaddr.parseCIDR('::/96')) && (parts[6]! !== 0 || parts[7]! > 1)) {
    return v4(parts[6]!, parts[7]!);
  }
  // 6to4 2002:aabb:ccdd::/48 (RFC 3056): the embedded IPv4 is the tunnel's far end.
  if (address.match(ipaddr.parseCIDR('2002::/16'))) return v4(parts[1]!, parts[2]!);
  // Teredo 2001:0::/32 (RFC 4380): the client's IPv4 is stored inverted in the last 32 bits.
  if (address.match(ipaddr.parseCIDR('2001::/32'))) return v4(parts[6]! ^ 0xffff, parts[7]! ^ 0xffff);
  return null;
}

function classifyParsed(address: ipaddr.IPv4 | ipaddr.IPv6): AddressClass {
  if (address.kind() === 'ipv6') {
    const inner = embeddedIpv4(address as ipaddr.IPv6);
    if (inner) {
      const kind = classifyParsed(inner);
      // Only mapped and NAT64 addresses really reach a public IPv4; the tunnelling forms are
      // deprecated special-purpose ranges either way.
      if (kind !== 'public') return kind;
      const mapped = (address as ipaddr.IPv6).isIPv4MappedAddress();
      const nat64 = address.match(ipaddr.parseCIDR('64:ff9b::/96'));
      if (!mapped && !nat64 && !address.match(ipaddr.parseCIDR('2002::/16'))) return 'reserved';
      return 'public';
    }
  }
  for (const [kind, range] of parsedRanges) {
    if (range[0].kind() === address.kind() && address.match(range)) return kind;
  }
  return 'public';
}

/**
 * The class of an IP address in any spelling ipaddr.js (and inet_aton) accepts: dotted, octal, hex
 * or integer IPv4, compressed or expanded IPv6, with brackets, a zone id or a trailing dot.
 * Anything that is not an address is `reserved`, so it is never reached by mistake.
 */
export function classifyAddress(raw: string): AddressClass {
  return remembered(classified, CLASSIFIED_MAX, raw, classifySpelling);
}

/**
 * The classes of the addresses met lately, by spelling. A receiver's few addresses come back on every
 * delivery; parsing and matching them against the table each time cost more than the rest of the
 * guard. A spelling's class never changes, so remembering it changes no decision.
 */
const classified = new Map<string, AddressClass>();
/** Past this many spellings the memory starts over (a bound, not a cache to tune). */
const CLASSIFIED_MAX = 1_000;

function classifySpelling(raw: string): AddressClass {
  const bare = raw
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .replace(/\.$/, '');
  if (!ipaddr.isValid(bare)) return 'reserved';
  return classifyParsed(ipaddr.parse(bare));
}

/** `localhost` and names under it are loopback without asking DNS (RFC 6761 §6.3). */
export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export function isIpLiteral(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  return ipaddr.IPv6.isValid(bare) || ipaddr.IPv4.isValidFourPartDecimal(bare.replace(/\.$/, ''));
}

export interface DestinationPolicy {
  livemode: boolean;
  /** Whether any loopback, private and link-local address may be reached (local development only). */
  allowPrivate: boolean;
  /**
   * Host names (and IP literals) that may reach loopback, private and link-local addresses whatever
   * `allowPrivate` says: the operator's own services (`OUTBOUND_ALLOWED_PRIVATE_HOSTS`), lower case.
   */
  allowedPrivateHosts: readonly string[];
}

/** A URL's host as the allowlist spells it: lower case, no brackets, no trailing dot. */
export function normalHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
}

/** May this host reach a private address under this policy? */
function privateAllowed(host: string, policy: DestinationPolicy): boolean {
  return policy.allowPrivate || policy.allowedPrivateHosts.includes(normalHost(host));
}

/** Is a class one that the private-destination setting governs (as opposed to never reachable)? */
export function isPrivateClass(kind: AddressClass): boolean {
  return kind === 'loopback' || kind === 'private' || kind === 'link_local';
}

/** Why `host`'s address of this class may not be reached under this policy, or null when it may. */
export function refusalFor(kind: AddressClass, policy: DestinationPolicy, host: string): string | null {
  if (kind === 'public') return null;
  // Metadata endpoints hand out cloud credentials: never reachable, whatever the settings.
  if (kind === 'metadata') return 'a cloud metadata address';
  if (kind === 'reserved') return 'a reserved or special-purpose address';
  if (privateAllowed(host, policy)) return null;
  return `a ${kind.replace('_', '-')} address`;
}

/** Checks a destination URL when it is registered; names only what can be known without DNS. */
export function urlProblem(raw: string, policy: DestinationPolicy): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (policy.livemode && url.protocol !== 'https:') return 'must use https in production';
  // Credentials in a URL end up in logs and dashboards.
  if (url.username || url.password) return 'must not contain credentials';
  if (url.hash) return 'must not contain a fragment';
  // The WHATWG parser already turned hex, octal and integer IPv4 into dotted form and compressed IPv6.
  const host = url.hostname;
  const kind = isLocalhostName(host) ? 'loopback' : isIpLiteral(host) ? classifyAddress(host) : null;
  if (kind) {
    const refusal = refusalFor(kind, policy, host);
    if (refusal) return `must not point to ${refusal}`;
  }
  return null;
}

/**
 * What is wrong with the URL of a service the operator configured (a merchant, its sign-in
 * endpoints), knowable without DNS: the destination rules, and https unless the host may be private
 * (a service inside the operator's network): keys and card numbers cross these connections.
 */
export function serviceUrlProblem(raw: string, policy: DestinationPolicy): string | null {
  const problem = urlProblem(raw, { ...policy, livemode: false });
  if (problem) return problem;
  const url = new URL(raw);
  if (url.protocol !== 'https:' && !privateAllowed(url.hostname, policy)) return 'must use https';
  return null;
}

export class DestinationRefused extends Error {}

export interface ResolvedDestination {
  address: string;
  family: 4 | 6;
  /**
   * The class of `address`: the delivery log keeps a response body from a `public` one, and from
   * others only on a developer's machine (absent: not classified, so not public).
   */
  kind?: AddressClass;
}

/** How destination names are resolved; the default asks the system resolver for every address. */
export type HostResolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: HostResolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves the destination's host and checks every address it resolves to (one bad record is
 * enough to refuse: a name may not mix a public and an internal address). Returns the address
 * the connection must use; the sender connects to it and to nothing else.
 */
export async function resolveDestination(
  url: URL,
  policy: DestinationPolicy,
  resolve: HostResolver = systemResolver,
): Promise<ResolvedDestination> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIpLiteral(host)
    ? [{ address: host, family: ipaddr.IPv6.isValid(host) ? 6 : 4 }]
    : await resolve(host).catch((error: NodeJS.ErrnoException) => {
        throw new DestinationRefused(`could not resolve ${host} (${error.code ?? 'error'})`);
      });
  if (addresses.length === 0) throw new DestinationRefused(`could not resolve ${host}`);
  let first: ResolvedDestination | null = null;
  for (const { address, family } of addresses) {
    // A localhost name is loopback whatever a resolver says (RFC 6761).
    const kind =
      isLocalhostName(host) && classifyAddress(address) === 'public' ? 'loopback' : classifyAddress(address);
    const refusal = refusalFor(kind, policy, host);
    if (refusal) throw new DestinationRefused(`${host} resolves to ${refusal} (${address}); refused`);
    first ??= { address, family: family === 6 ? 6 : 4, kind };
  }
  return first!;
}
