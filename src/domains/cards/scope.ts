import { Refusal } from '../../core/refusal.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { Principal } from '../auth/index.ts';
import type { CardRefusalCode } from './index.ts';

export function scopeOf(principal: Pick<Principal, 'organizationId' | 'livemode'>): Tenant {
  return { organizationId: principal.organizationId, livemode: principal.livemode };
}

/** Simulations act only in test mode (spec §7: a live token gets `403 sandbox_only`). */
export function sandboxScope(
  principal: Pick<Principal, 'organizationId' | 'livemode'>,
  what: string,
): Tenant {
  if (principal.livemode)
    throw new Refusal<CardRefusalCode>('sandbox_only', `${what} needs a test-mode credential.`);
  return scopeOf(principal);
}
