import { boolean, ConfigError, type Env } from '../env.ts';
import {
  classifyAddress,
  type DestinationPolicy,
  type HostResolver,
  isIpLiteral,
  isLocalhostName,
  normalHost,
  systemResolver,
} from './ssrf.ts';

/**
 * The one policy of every outbound call Purser makes (docs/operations.md "Outbound destinations"):
 * webhooks and client metadata documents, whose destinations organizations choose, and the services
 * the operator configured (merchants, their account linking, the messaging provider, the SMS API,
 * the identity-review provider, the language model). Every one reaches public addresses only,
 * except the private hosts the operator names; cloud metadata and special-purpose addresses never.
 */
export interface OutboundConfig {
  /**
   * `OUTBOUND_ALLOWED_PRIVATE_HOSTS`: host names (or IP literals) that may resolve to loopback,
   * private or link-local addresses, for every outbound call and in both modes: a provider inside
   * the operator's network.
   */
  allowedPrivateHosts: string[];
  /**
   * `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`, per mode: may any destination be private? For local
   * development only: refused in production (`NODE_ENV=production`), where hosts are named instead.
   */
  allowPrivateDestinations: { production: boolean; sandbox: boolean };
  /** How destination names are resolved; the system resolver (tests inject their own). */
  resolveHost: HostResolver;
}

/** A host name (RFC 1123 labels) or an IP literal, as a URL's host would be written. */
const HOST_NAME =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

export function loadOutboundConfig(env: Env, options: { production: boolean }): OutboundConfig {
  return {
    allowedPrivateHosts: allowedPrivateHosts(env),
    allowPrivateDestinations: privateDestinations(env, options.production),
    resolveHost: systemResolver,
  };
}

function allowedPrivateHosts(env: Env): string[] {
  const raw = env.OUTBOUND_ALLOWED_PRIVATE_HOSTS ?? '';
  const hosts = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of hosts) {
    const host = normalHost(entry);
    if (isIpLiteral(host)) {
      // A metadata or special-purpose address stays unreachable: naming one is a mistake, said at once.
      const kind = classifyAddress(host);
      if (kind === 'metadata' || kind === 'reserved')
        throw new ConfigError(
          `OUTBOUND_ALLOWED_PRIVATE_HOSTS: ${entry} is a ${kind === 'metadata' ? 'cloud metadata' : 'special-purpose'} address, never reachable`,
        );
    } else if (!HOST_NAME.test(host)) {
      throw new ConfigError(
        `OUTBOUND_ALLOWED_PRIVATE_HOSTS must be comma-separated host names or IP addresses (no scheme, port, path or wildcard), got "${entry}"`,
      );
    }
  }
  return [...new Set(hosts.map(normalHost))];
}

/**
 * `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS`: `true` allows private destinations in both modes, `false`
 * in neither. Unset, sandbox allows them only when `BASE_URL` is a loopback address (a developer's
 * machine, whose receivers are local): elsewhere a sandbox user could probe the operator's internal
 * services through the delivery log. In production `true` is refused: it would open every
 * organization's webhooks to the operator's network along with the service that needed it.
 */
function privateDestinations(env: Env, production: boolean): OutboundConfig['allowPrivateDestinations'] {
  const raw = env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS;
  if (raw !== undefined && raw !== '') {
    const allowed = boolean(env, 'WEBHOOK_ALLOW_PRIVATE_DESTINATIONS', false);
    if (allowed && production)
      throw new ConfigError(
        'WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=true is for local development and is refused in production ' +
          '(NODE_ENV=production): name the private hosts Purser must reach in OUTBOUND_ALLOWED_PRIVATE_HOSTS',
      );
    return { production: allowed, sandbox: allowed };
  }
  return { production: false, sandbox: !production && isLoopbackUrl(env.BASE_URL || 'http://localhost') };
}

function isLoopbackUrl(raw: string): boolean {
  let host: string;
  try {
    host = new URL(raw).hostname;
  } catch {
    return false;
  }
  if (isLocalhostName(host)) return true;
  return isIpLiteral(host) && classifyAddress(host) === 'loopback';
}

/** The policy for a destination an organization chose (a webhook endpoint), in its mode. */
export function destinationPolicy(config: OutboundConfig, livemode: boolean): DestinationPolicy {
  return {
    livemode,
    allowPrivate: livemode
      ? config.allowPrivateDestinations.production
      : config.allowPrivateDestinations.sandbox,
    allowedPrivateHosts: config.allowedPrivateHosts,
  };
}

/**
 * The policy for a service the operator configured (a merchant, a provider): reached as production
 * destinations are, whichever mode the call serves.
 */
export function operatorPolicy(config: OutboundConfig): DestinationPolicy {
  return destinationPolicy(config, true);
}

/** The guard a client of an operator-configured service is given (core/http/client.ts). */
export function operatorGuard(config: OutboundConfig): {
  policy: DestinationPolicy;
  resolveHost: HostResolver;
} {
  return { policy: operatorPolicy(config), resolveHost: config.resolveHost };
}
