import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Config } from '../../config.ts';
import { type Clock, isoTime, MINUTE } from '../../core/clock.ts';
import { digest, numericCode, safeEqual } from '../../core/crypto.ts';
import { newId } from '../../core/ids.ts';
import { invalid, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { DatabaseHandle, Db, Dialect, Executor } from '../../db/index.ts';
import type { ConnectAttempt, User } from '../../db/schema.ts';
import type { AuthService, Principal } from '../auth/index.ts';
import type { NotificationService } from '../notifications/index.ts';
import type { OrgService } from '../orgs/index.ts';
import { connectEmail, connectSms } from './email.ts';
import type { ConnectRefusalCode } from './index.ts';
import * as store from './store.ts';
import { checkStartThrottles, lockStartScope } from './throttle.ts';
import { type ConnectionObject, ConnectTokens } from './tokens.ts';

export type { ConnectionObject } from './tokens.ts';

/** Connect code validity (spec §8). */
export const CODE_TTL_MINUTES = 10;
/** In sandbox the code is always this constant (spec §4, Connect). */
export const SANDBOX_CODE = '111111';

export interface ConnectAttemptObject {
  object: 'connect_attempt';
  id: string;
  channel: 'email' | 'phone';
  expires_at: string;
}

export interface ConsentObject {
  object: 'consent';
  id: string;
  user_id: string;
  terms_version: string | null;
  created_at: string;
}

const refuse = (code: ConnectRefusalCode, message: string, fieldErrors?: Record<string, string>) =>
  new Refusal<ConnectRefusalCode>(code, message, { fieldErrors });
const invalidAttempt = () =>
  refuse('invalid_connect_attempt', 'This connect attempt is unknown, already used or no longer valid.');
const invalidCode = () => refuse('invalid_code', 'The code is invalid or has expired.');

export class ConnectService {
  private readonly committedUser: ReturnType<typeof store.committedUserLookup>;
  private readonly tokens: ConnectTokens;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: Config,
    private readonly deps: {
      auth: AuthService;
      orgs: OrgService;
      notifications: NotificationService;
      sealer: Sealer;
      dialect: Dialect;
      reader: DatabaseHandle['reader'];
    },
  ) {
    this.committedUser = store.committedUserLookup({ db, reader: deps.reader });
    this.tokens = new ConnectTokens(db, clock, config, deps);
  }

  /** Sends a one-time code by email or SMS and opens an attempt valid for 10 minutes. */
  async start(
    principal: Principal,
    input: { email?: string; phone?: string; external_user_id?: string },
  ): Promise<ConnectAttemptObject> {
    if ((input.email === undefined) === (input.phone === undefined)) {
      const message = 'Send exactly one of email or phone.';
      throw invalid(message, { email: message, phone: message });
    }
    const channel = input.email !== undefined ? 'email' : 'phone';
    const email = input.email?.trim().toLowerCase() ?? null;
    const phone = input.phone !== undefined ? normalisePhone(input.phone) : null;

    const now = this.clock.now();
    const code = principal.livemode ? numericCode(6) : SANDBOX_CODE;
    const attempt = {
      id: newId('ca'),
      organization_id: principal.organizationId,
      client_id: principal.clientId,
      livemode: livemodeColumn(principal.livemode),
      channel,
      email,
      phone,
      external_user_id: input.external_user_id ?? null,
      code_digest: digest(code),
      failed_attempts: 0,
      status: 'pending',
      expires_at: now + CODE_TTL_MINUTES * MINUTE,
      created_at: now,
      verified_at: null,
    } as const;
    const scope = {
      organizationId: principal.organizationId,
      clientId: principal.clientId,
      livemode: attempt.livemode,
      email,
      phone,
    };
    // Checked and inserted under one lock: parallel starts cannot all pass the same check.
    await this.db.transaction().execute(async (trx) => {
      await lockStartScope(trx, this.deps.dialect, scope);
      // Sandbox codes go to the local outbox (unless SANDBOX_REAL_DELIVERY): no inbox to protect.
      const perDestination = principal.livemode || this.config.sandboxRealDelivery;
      await checkStartThrottles(trx, this.config.connectRateLimit, scope, now, { perDestination });
      await store.insertAttempt(trx, attempt);
    });

    const organization = await this.deps.orgs.getOrganization(principal.organizationId);
    const sender = { organizationId: organization.id, livemode: principal.livemode };
    try {
      if (email !== null) {
        await this.deps.notifications.sendEmail(
          sender,
          connectEmail(organization, email, code, CODE_TTL_MINUTES),
        );
      } else {
        await this.deps.notifications.sendSms(sender, {
          to: phone as string,
          body: connectSms(organization, code, CODE_TTL_MINUTES),
        });
      }
    } catch {
      // An attempt whose code never left must not be verifiable later.
      await store.markUndeliverable(this.db, attempt.id);
      throw refuse('auth_provider_error', 'The code could not be sent. Try again.');
    }
    return { object: 'connect_attempt', id: attempt.id, channel, expires_at: isoTime(attempt.expires_at) };
  }

  /** Verifying the code is the authorization: it connects the user to the calling client. */
  async verify(principal: Principal, input: { connect_id: string; code: string }): Promise<ConnectionObject> {
    const { attempt, now } = await this.checkCode(principal, input);
    return this.db.transaction().execute(async (trx) => {
      const user = await this.claimUser(trx, attempt, now);
      const connectionId = await this.connectUser(trx, principal, user.id, attempt.external_user_id);
      const tokens = await this.tokens.issuePair(trx, principal, {
        connectionId,
        userId: user.id,
        familyId: newId('fam'),
      });
      return { ...tokens, user: { id: user.id, email: user.email, phone: user.phone } };
    });
  }

  /**
   * The hosted sign-in of the user-facing OAuth flow: the same one-time code as connect (same
   * attempt limits), proving who the user is without connecting them yet (consent comes next).
   */
  async signIn(principal: Principal, input: { connect_id: string; code: string }) {
    const { attempt, now } = await this.checkCode(principal, input);
    return this.db.transaction().execute((trx) => this.claimUser(trx, attempt, now));
  }

  /** The attempt, once its code was checked: wrong codes count against the attempt's limit. */
  private async checkCode(principal: Principal, input: { connect_id: string; code: string }) {
    const attempt = await store.findAttempt(this.db, input.connect_id);
    if (
      !attempt ||
      attempt.organization_id !== principal.organizationId ||
      attempt.client_id !== principal.clientId ||
      attempt.livemode !== livemodeColumn(principal.livemode) ||
      attempt.status !== 'pending'
    ) {
      throw invalidAttempt();
    }
    const now = this.clock.now();
    if (attempt.expires_at <= now) throw invalidCode();
    // At most MAX_FAILED_CODES comparisons per attempt, however many requests arrive at once.
    if (!(await store.takeCodeCheck(this.db, attempt.id))) throw invalidAttempt();
    if (!safeEqual(digest(input.code), attempt.code_digest)) {
      await store.lockIfExhausted(this.db, attempt.id);
      throw invalidCode();
    }
    return { attempt, now };
  }

  /** Claims the checked attempt and finds or creates its user, in the caller's transaction. */
  private async claimUser(trx: Executor, attempt: ConnectAttempt, now: number): Promise<User> {
    // Exactly one verify wins; a parallel or later one finds the attempt no longer pending.
    if (!(await store.claimAttempt(trx, attempt.id, now))) throw invalidAttempt();
    return store.findOrCreateUser(trx, {
      id: newId('usr'),
      organization_id: attempt.organization_id,
      livemode: attempt.livemode,
      email: attempt.email,
      phone: attempt.phone,
      created_at: now,
    });
  }

  /** Creates or reuses the connection of (client, user); its id. */
  async connectUser(
    trx: Executor,
    owner: Principal,
    userId: string,
    externalUserId: string | null = null,
  ): Promise<string> {
    return store.upsertConnection(trx, {
      id: newId('conn'),
      organization_id: owner.organizationId,
      client_id: owner.clientId,
      user_id: userId,
      livemode: livemodeColumn(owner.livemode),
      external_user_id: externalUserId,
      now: this.clock.now(),
    });
  }

  /** Records the user's consent; a repeat updates the same record and keeps its id. */
  async consent(
    principal: Principal,
    input: { user_id: string; terms_version?: string },
  ): Promise<ConsentObject> {
    await this.requireConnection(principal, input.user_id);
    const consent = await store.upsertConsent(this.db, {
      id: newId('cns'),
      organization_id: principal.organizationId,
      livemode: livemodeColumn(principal.livemode),
      user_id: input.user_id,
      terms_version: input.terms_version ?? null,
      now: this.clock.now(),
    });
    return {
      object: 'consent',
      id: consent.id,
      user_id: consent.user_id,
      terms_version: consent.terms_version,
      created_at: isoTime(consent.created_at),
    };
  }

  /** 404 `connection_not_found` unless the user is connected to the calling client. */
  async requireConnection(principal: Principal, userId: string) {
    const connection = await store.findConnection(this.db, userId, principal.clientId);
    if (
      !connection ||
      connection.organization_id !== principal.organizationId ||
      connection.livemode !== livemodeColumn(principal.livemode)
    ) {
      throw refuse('connection_not_found', 'No connection for that user under this client.');
    }
    return connection;
  }

  /**
   * For operator tools acting in a platform's place (`purser kyc simulate`): the platform principal
   * of the client the user last connected to; 404 `connection_not_found` for a user never connected.
   */
  async actAsConnectedClient(userId: string): Promise<Principal> {
    const connection = await store.findLatestConnection(this.db, userId);
    if (!connection) throw refuse('connection_not_found', `No connection for user ${userId}.`);
    return {
      kind: 'platform',
      organizationId: connection.organization_id,
      clientId: connection.client_id,
      livemode: isLivemode(connection.livemode),
      userId: null,
      connectionId: null,
    };
  }

  /** The user of this organization and mode, if any (no connection to the caller needed). */
  findUser(organizationId: string, livemode: boolean, userId: string, exec: Executor = this.db) {
    if (exec === this.db) return this.committedUser(userId, organizationId, livemodeColumn(livemode));
    return store.findUser(exec, organizationId, livemodeColumn(livemode), userId);
  }

  async hasConsent(userId: string): Promise<boolean> {
    return (await store.findConsent(this.db, userId)) !== undefined;
  }

  /**
   * The apps the principal's user is connected to in its organization and mode (connections that
   * still hold a usable refresh token), oldest first, each with its client's name.
   */
  async listConnections(principal: Principal & { userId: string }) {
    const rows = await this.connectedApps({ ...principal, userId: principal.userId });
    return rows.map((row) => ({
      id: row.id,
      client_id: row.client_id,
      app_name: row.client_name,
      connected_at: isoTime(row.created_at),
    }));
  }

  /**
   * Disconnects a connection of the principal's user: every access and refresh token issued to it is
   * revoked at once, in one transaction. 404 `connection_not_found` for a connection of anyone else.
   */
  async disconnect(principal: Principal & { userId: string }, connectionId: string): Promise<void> {
    const connection = await store.findConnection(this.db, principal.userId, principal.clientId);
    if (
      !connection ||
      connection.id !== connectionId ||
      connection.organization_id !== principal.organizationId ||
      connection.livemode !== livemodeColumn(principal.livemode)
    ) {
      throw refuse('connection_not_found', 'No such connection for this user and app.');
    }
    await this.db.transaction().execute((trx) => this.tokens.revokeConnection(trx, connection.id));
  }

  /** The user disconnects one of their apps (the connected-apps page): its tokens stop at once. */
  async disconnectApp(
    owner: { organizationId: string; livemode: boolean; userId: string },
    connectionId: string,
  ) {
    return this.db.transaction().execute(async (trx) => {
      const connection = await store.findConnectionById(trx, connectionId);
      if (
        !connection ||
        connection.organization_id !== owner.organizationId ||
        connection.livemode !== livemodeColumn(owner.livemode) ||
        connection.user_id !== owner.userId
      )
        return false;
      await this.tokens.revokeConnection(trx, connectionId);
      return true;
    });
  }

  /** The apps (clients) holding a live grant for the user: what the connected-apps page lists. */
  async connectedApps(owner: { organizationId: string; livemode: boolean; userId: string }) {
    const rows = await store.liveConnections(
      this.db,
      owner.organizationId,
      livemodeColumn(owner.livemode),
      owner.userId,
      this.clock.now(),
    );
    // Client names are the orgs domain's (it owns `clients`): asked once per client, through its door.
    const names = new Map<string, string | undefined>();
    for (const id of new Set(rows.map((row) => row.client_id)))
      names.set(id, (await this.deps.orgs.findClient(id))?.name);
    return rows.flatMap((row) => {
      const client_name = names.get(row.client_id);
      return client_name === undefined ? [] : [{ ...row, client_name }];
    });
  }

  // ---- tokens (tokens.ts)

  /** `POST /connect/refresh`: a new pair for a live refresh token (tokens.ts, `refresh`). */
  refresh(principal: Principal, input: { refresh_token: string }): Promise<ConnectionObject> {
    return this.tokens.refresh(principal, input);
  }

  /** The rotation behind connect refresh and the OAuth refresh grant; null for a dead token. */
  rotate(principal: Principal, refreshToken: string): Promise<ConnectionObject | null> {
    return this.tokens.rotate(principal, refreshToken);
  }

  /** Erases sealed successor pairs whose retry grace is over (the worker's retention sweep). */
  sweepRotatedSuccessors(): Promise<number> {
    return this.tokens.sweepRotatedSuccessors();
  }

  /** One revocation path: both tokens of a family (one grant) stop at once. */
  revokeFamily(familyId: string): Promise<void> {
    return this.tokens.revokeFamily(familyId);
  }

  /** The family of a refresh token of this client, if it is one (RFC 7009 revocation). */
  refreshTokenFamily(clientId: string, refreshToken: string): Promise<string | null> {
    return this.tokens.refreshTokenFamily(clientId, refreshToken);
  }

  /** Mints a connection token pair (bound to the tool server resource) in the caller's transaction. */
  issueConnectionTokens(
    trx: Executor,
    owner: Principal,
    ids: { connectionId: string; userId: string; familyId: string },
  ): Promise<ConnectionObject> {
    return this.tokens.issuePair(trx, owner, ids);
  }
}

/** E.164 only: a leading `+` and a number the numbering plan knows (libphonenumber metadata). */
function normalisePhone(raw: string): string {
  const value = raw.trim();
  const parsed = /^\+[1-9]\d{1,14}$/.test(value) ? parsePhoneNumberFromString(value) : undefined;
  if (!parsed?.isValid()) {
    throw refuse(
      'invalid_phone',
      'The phone number must be a valid number in E.164 form, e.g. +14155550123.',
      { phone: 'must be a valid E.164 phone number' },
    );
  }
  return parsed.number;
}
