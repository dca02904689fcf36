import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * The SSRF guard for webhook destinations. Production destinations must be https and must reach a
 * public address; sandbox also allows http and loopback (`http://localhost` for local
 * development). The address is checked after DNS resolution, at delivery time, and the connection
 * then goes to that checked address, so a name that re-resolves (DNS rebinding) cannot reach inside.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link_local' | 'metadata' | 'reserved';

const ranges: [Exclude<AddressClass, 'public'>, string, number, 'ipv4' | 'ipv6'][] = [
  // Cloud metadata services first: they sit inside the link-local and private ranges.
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', '169.254.170.2', 32, 'ipv4'],
  ['metadata', '100.100.100.200', 32, 'ipv4'],
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['loopback', '::1', 128, 'ipv6'],
  // RFC 1918, RFC 6598 (carrier-grade NAT), RFC 4193 (unique local).
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['private', '100.64.0.0', 10, 'ipv4'],
  ['private', 'fc00::', 7, 'ipv6'],
  // RFC 3927, RFC 4291 §2.5.6.
  ['link_local', '169.254.0.0', 16, 'ipv4'],
  ['link_local', 'fe80::', 10, 'ipv6'],
  // "This network", IETF protocol assignments, benchmarking, multicast, reserved, unspecified.
  ['reserved', '0.0.0.0', 8, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['reserved', '::', 128, 'ipv6'],
  ['reserved', 'ff00::', 8, 'ipv6'],
];

const lists = new Map<Exclude<AddressClass, 'public'>, BlockList>();
for (const [kind, network, prefix, family] of ranges) {
  let list = lists.get(kind);
  if (!list) {
    list = new BlockList();
    lists.set(kind, list);
  }
  list.addSubnet(network, prefix, family);
}

/** IPv4 embedded in IPv6 (RFC 4291 §2.5.5.2 mapped, RFC 6052 NAT64) is judged as the IPv4 address. */
function embeddedIpv4(address: string): string | null {
  const match = /^(?:::ffff:|64:ff9b::)(?:0{1,4}:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (match) return match[1] as string;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] as string, 16);
  const low = Number.parseInt(hex[2] as string, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v4 = embeddedIpv4(bare);
  const ip = v4 ?? bare;
  const family = isIP(ip);
  if (family === 0) return 'reserved';
  for (const [kind, list] of lists) {
    if (list.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  }
  return 'public';
}

export interface DestinationPolicy {
  livemode: boolean;
  allowPrivate: boolean;
}

/** Why an address may not be reached in this mode, or null when it may. */
export function refusalFor(kind: AddressClass, policy: DestinationPolicy): string | null {
  if (kind === 'public') return null;
  // Metadata endpoints hand out cloud credentials: never reachable, whatever the settings.
  if (kind === 'metadata') return 'a cloud metadata address';
  if (policy.allowPrivate) return null;
  if (kind === 'loopback' && !policy.livemode) return null;
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
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) || embeddedIpv4(host)) {
    const refusal = refusalFor(classifyAddress(host), policy);
    if (refusal) return `must not point to ${refusal}`;
  }
  return null;
}

export class DestinationRefused extends Error {}

export interface ResolvedDestination {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves the destination's host and checks every address it resolves to (one bad record is
 * enough to refuse: a name may not mix a public and an internal address). Returns the address
 * the connection must use.
 */
export async function resolveDestination(url: URL, policy: DestinationPolicy): Promise<ResolvedDestination> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host)
    ? [{ address: host, family: isIP(host) }]
    : await lookup(host, { all: true, verbatim: true }).catch((error: NodeJS.ErrnoException) => {
        throw new DestinationRefused(`could not resolve ${host} (${error.code ?? 'error'})`);
      });
  if (addresses.length === 0) throw new DestinationRefused(`could not resolve ${host}`);
  for (const { address } of addresses) {
    const refusal = refusalFor(classifyAddress(address), policy);
    if (refusal) throw new DestinationRefused(`${host} resolves to ${refusal} (${address}); refused`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
