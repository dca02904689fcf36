import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { Clock } from '../../core/clock.ts';
import { SECOND } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { Refusal } from '../../core/refusal.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { VaultPasskeysTable } from '../../db/schema.ts';
import type { VaultRefusalCode } from './index.ts';
import {
  deleteExpiredChallenges,
  deletePasskeysOf,
  insertChallenge,
  insertPasskey,
  passkeysOf,
  raiseCounter,
  takeChallenge,
} from './passkeys-store.ts';

/** How long a challenge can be answered (WebAuthn §13.4.3: short-lived, single-use). */
export const CHALLENGE_TTL_SECONDS = 120;

export interface UserScope {
  organizationId: string;
  livemode: boolean;
  userId: string;
}

/** Where WebAuthn runs: the relying party is Purser's own host, taken from BASE_URL. */
export interface RelyingParty {
  id: string;
  origin: string;
}

export function relyingParty(baseUrl: string): RelyingParty {
  const url = new URL(baseUrl);
  return { id: url.hostname, origin: url.origin };
}

const refused = (message: string) => new Refusal<VaultRefusalCode>('passkey_invalid', message);

/**
 * Passkeys (WebAuthn Level 3, through @simplewebauthn/server): registration and assertions for the
 * hosted vault and the approval page. Every challenge is stored once, bound to the page that asked
 * for it (`binding`) and its purpose, lives two minutes and is consumed by the first response that
 * names it, verified or not; an assertion must also raise the credential's signature counter
 * (§6.1.1), so a replayed assertion is refused twice over.
 */
export class Passkeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rp: RelyingParty,
  ) {}

  async list(user: UserScope): Promise<VaultPasskeysTable[]> {
    return passkeysOf(this.db, user);
  }

  /**
   * Options to register a passkey. The user's existing passkeys are excluded (an authenticator that
   * holds one answers it already has one), unless `replacing`: a reset removes them all.
   */
  async registrationOptions(
    user: UserScope & { name: string; displayName: string; rpName: string },
    binding: string,
    { replacing = false }: { replacing?: boolean } = {},
  ): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = replacing ? [] : await this.list(user);
    const options = await generateRegistrationOptions({
      rpName: user.rpName,
      rpID: this.rp.id,
      userName: user.name,
      userDisplayName: user.displayName,
      userID: new TextEncoder().encode(user.userId),
      attestationType: 'none',
      excludeCredentials: existing.map((key) => ({ id: key.credential_id, transports: transportsOf(key) })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
      timeout: CHALLENGE_TTL_SECONDS * 1000,
    });
    await this.remember(options.challenge, binding, 'register');
    return options;
  }

  async verifyRegistration(
    user: UserScope,
    binding: string,
    response: RegistrationResponseJSON,
  ): Promise<VaultPasskeysTable> {
    const row = await this.checkRegistration(user, binding, response);
    await this.insert(this.db, row);
    return row;
  }

  /** A verified registration for a challenge issued to `binding`, as the row to store. Stores nothing. */
  async checkRegistration(
    user: UserScope,
    binding: string,
    response: RegistrationResponseJSON,
  ): Promise<VaultPasskeysTable> {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: (challenge) => this.consume(challenge, binding, 'register'),
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      requireUserVerification: true,
    }).catch((error: Error) => {
      throw refused(`The passkey could not be registered: ${error.message}`);
    });
    if (!verified.verified) throw refused('The passkey could not be registered.');
    const { credential } = verified.registrationInfo;
    const row: VaultPasskeysTable = {
      id: newId('pk'),
      organization_id: user.organizationId,
      livemode: livemodeColumn(user.livemode),
      user_id: user.userId,
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? []),
      created_at: this.clock.now(),
      last_used_at: null,
    };
    return row;
  }

  async insert(exec: Executor, row: VaultPasskeysTable): Promise<void> {
    await insertPasskey(exec, row);
  }

  /** Removes every passkey of the user (a reset); answers how many there were. */
  removeAll(exec: Executor, user: UserScope): Promise<number> {
    return deletePasskeysOf(exec, user);
  }

  /**
   * Options for an assertion by one of this user's passkeys; null when the user has none. `challenge`:
   * one the caller derived (a mandate's binds its terms, mandates/terms.ts), random otherwise; it must
   * be new each time, as it is remembered once.
   */
  async authenticationOptions(
    user: UserScope,
    binding: string,
    purpose: string,
    challenge?: Uint8Array<ArrayBuffer>,
  ): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const keys = await this.list(user);
    if (keys.length === 0) return null;
    const options = await generateAuthenticationOptions({
      ...(challenge ? { challenge } : {}),
      rpID: this.rp.id,
      allowCredentials: keys.map((key) => ({ id: key.credential_id, transports: transportsOf(key) })),
      userVerification: 'required',
      timeout: CHALLENGE_TTL_SECONDS * 1000,
    });
    await this.remember(options.challenge, binding, purpose);
    return options;
  }

  /**
   * Verifies an assertion by one of this user's passkeys for a challenge issued to `binding` and
   * `purpose`, and records the raised counter. Throws `passkey_invalid` otherwise.
   */
  async verifyAuthentication(
    user: UserScope,
    binding: string,
    purpose: string,
    response: AuthenticationResponseJSON,
  ): Promise<VaultPasskeysTable> {
    const key = (await this.list(user)).find((k) => k.credential_id === response?.id);
    if (!key) throw refused('This passkey is not registered for this user.');
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => this.consume(challenge, binding, purpose),
      expectedOrigin: this.rp.origin,
      expectedRPID: this.rp.id,
      credential: {
        id: key.credential_id,
        publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
        counter: Number(key.counter),
        transports: transportsOf(key) as never,
      },
      requireUserVerification: true,
    }).catch((error: Error) => {
      throw refused(`The passkey was not accepted: ${error.message}`);
    });
    if (!verified.verified) throw refused('The passkey was not accepted.');
    const { newCounter } = verified.authenticationInfo;
    // Compare-and-set: of two assertions racing with one counter value, one raises it (§6.1.1).
    if (!(await raiseCounter(this.db, key.id, newCounter, this.clock.now())))
      throw refused('This passkey assertion was already used.');
    return key;
  }

  private async remember(challenge: string, binding: string, purpose: string): Promise<void> {
    const now = this.clock.now();
    await insertChallenge(this.db, {
      challenge,
      binding,
      purpose,
      expires_at: now + CHALLENGE_TTL_SECONDS * SECOND,
      used_at: null,
      created_at: now,
    });
  }

  /** Takes the challenge if it was issued for this binding and purpose, unused and unexpired. */
  private consume(challenge: string, binding: string, purpose: string): Promise<boolean> {
    return takeChallenge(this.db, { challenge, binding, purpose }, this.clock.now());
  }

  /** Forgets challenges past their life (the worker's sweep). */
  sweepChallenges(): Promise<number> {
    return deleteExpiredChallenges(this.db, this.clock.now());
  }
}

function transportsOf(key: VaultPasskeysTable): string[] {
  return JSON.parse(key.transports) as string[];
}
