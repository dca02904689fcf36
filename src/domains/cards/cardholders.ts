import { createHmac } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Clock } from '../../core/clock.ts';
import { isoTime } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import { missing } from '../../core/refusal.ts';
import type { AesGcmSealer, Sealer } from '../../core/sealer.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { CardholdersTable } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import * as store from './cardholder-store.ts';
import type { EventEmitter } from './events.ts';
import { CARDHOLDER_FIELDS, type CardholderDetails } from './objects.ts';

type Cardholder = Selectable<CardholdersTable>;

export interface NewCardholder extends CardholderDetails {
  external_user_id?: string | undefined;
}

/** HKDF purpose of the email digest key (distinct from every other key derived from the ring). */
const EMAIL_DIGEST_PURPOSE = 'cardholder-email-digests';

/** Cardholders (v1): the person cards are issued to; personal details are sealed at rest. */
export class Cardholders {
  /** The email digest key under every key of the ring, current first (docs/onboarding.md). */
  private readonly emailKeys: Buffer[];

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sealer: Sealer & Pick<AesGcmSealer, 'derivedKeys'>,
    private readonly events: EventEmitter,
  ) {
    this.emailKeys = sealer.derivedKeys(EMAIL_DIGEST_PURPOSE).map(({ key }) => key);
  }

  async create(scope: Tenant, input: NewCardholder) {
    return this.db.transaction().execute((trx) => this.createIn(trx, scope, input));
  }

  /** Creates a cardholder (and its `cardholder.created`) inside the caller's transaction. */
  async createIn(trx: Executor, scope: Tenant, input: NewCardholder) {
    // A cardholder of no user conflicts with none: the insert always writes.
    return (await this.insert(trx, scope, input, null)) as ReturnType<Cardholders['present']>;
  }

  async get(scope: Tenant, id: string) {
    return this.present(await this.find(this.db, scope, id));
  }

  async update(scope: Tenant, id: string, changes: Partial<NewCardholder>) {
    return this.db.transaction().execute(async (trx) => {
      const row = await this.find(trx, scope, id);
      const details = this.details(row);
      const updated: string[] = [];
      for (const field of CARDHOLDER_FIELDS) {
        const value = changes[field];
        if (value !== undefined && value !== details[field]) {
          (details as unknown as Record<string, unknown>)[field] = value;
          updated.push(field);
        }
      }
      const external = changes.external_user_id;
      const externalChanged = external !== undefined && external !== row.external_user_id;
      if (updated.length === 0 && !externalChanged) return this.present(row);
      const now = this.clock.now();
      const written = {
        details_sealed: this.seal(row.id, details),
        ...(updated.includes('email') ? { email_digest: this.emailDigest(details.email) } : {}),
        ...(externalChanged ? { external_user_id: external } : {}),
        updated_at: now,
      };
      await store.updateCardholder(trx, row.id, written);
      if (updated.length > 0) {
        await this.events.emit(trx, {
          organizationId: scope.organizationId,
          livemode: scope.livemode,
          type: 'cardholder.updated',
          data: { id: row.id, ...details, updated_fields: updated, updated_at: isoTime(now) },
        });
      }
      return this.present({ ...row, ...written });
    });
  }

  /**
   * The cardholder of a connected user, made once when the user's verification is approved (or on
   * their first card when approval came earlier), from what the verification established.
   */
  async ensureForUser(
    trx: Executor,
    scope: Tenant,
    user: { id: string; email: string | null; phone: string | null },
    identity: {
      first_name?: string | undefined;
      last_name?: string | undefined;
      date_of_birth?: string | undefined;
    },
  ): Promise<Cardholder> {
    const livemode = livemodeColumn(scope.livemode);
    const existing = await store.cardholderOfUser(trx, scope.organizationId, livemode, user.id);
    if (existing) return existing;
    // Two first cards of one user at once both find none: one insert wins, the other reads its row.
    const created = await this.insert(
      trx,
      scope,
      {
        first_name: identity.first_name || null,
        last_name: identity.last_name || null,
        email: user.email,
        date_of_birth: identity.date_of_birth ?? null,
        phone_number: user.phone,
      },
      user.id,
    );
    if (created === null)
      return (await store.cardholderOfUser(trx, scope.organizationId, livemode, user.id)) as Cardholder;
    return (await store.cardholder(trx, scope.organizationId, livemode, created.id)) as Cardholder;
  }

  cardholderOfUser(exec: Executor, scope: Tenant, userId: string) {
    return store.cardholderOfUser(exec, scope.organizationId, livemodeColumn(scope.livemode), userId);
  }

  /** The new cardholder, or null when `userId` already has one (another transaction made it first). */
  private async insert(trx: Executor, scope: Tenant, input: NewCardholder, userId: string | null) {
    const id = newId('ch');
    const now = this.clock.now();
    const details: CardholderDetails = {
      first_name: input.first_name,
      last_name: input.last_name,
      email: input.email,
      date_of_birth: input.date_of_birth,
      phone_number: input.phone_number,
    };
    const row: Cardholder = {
      id,
      organization_id: scope.organizationId,
      livemode: livemodeColumn(scope.livemode),
      user_id: userId,
      external_user_id: input.external_user_id ?? null,
      details_sealed: this.seal(id, details),
      email_digest: this.emailDigest(details.email),
      created_at: now,
      updated_at: now,
    };
    if (!(await store.insertCardholder(trx, row))) return null;
    await this.events.emit(trx, {
      organizationId: scope.organizationId,
      livemode: scope.livemode,
      type: 'cardholder.created',
      data: { id, ...details, created_at: isoTime(now) },
    });
    return this.present(row);
  }

  /**
   * The cardholder of this organization and mode with this email (compared lowercased), if any: by
   * its keyed digest under any key of the ring; rows written before digests existed are opened and
   * given theirs on the way.
   */
  async findByEmail(exec: Executor, scope: Tenant, email: string): Promise<Cardholder | undefined> {
    const livemode = livemodeColumn(scope.livemode);
    const candidates = this.emailKeys.map((key) => emailDigestUnder(key, email));
    const found = await store.cardholderByEmailDigest(exec, scope.organizationId, livemode, candidates);
    if (found) return found;
    for (const row of await store.cardholdersWithoutEmailDigest(exec, scope.organizationId, livemode)) {
      const own = this.emailDigest(this.details(row).email);
      await store.updateCardholder(exec, row.id, { email_digest: own });
      if (own === candidates[0]) return { ...row, email_digest: own };
    }
    return undefined;
  }

  /** '' for a cardholder without an email: written, so the backfill above never visits it again. */
  private emailDigest(email: string | null): string {
    return email === null ? '' : emailDigestUnder(this.emailKeys[0] as Buffer, email);
  }

  private async find(exec: Executor, scope: Tenant, id: string): Promise<Cardholder> {
    const row = await store.cardholder(exec, scope.organizationId, livemodeColumn(scope.livemode), id);
    if (!row) throw missing('No such cardholder.');
    return row;
  }

  present(row: Cardholder) {
    return {
      object: 'cardholder' as const,
      id: row.id,
      ...this.details(row),
      external_user_id: row.external_user_id,
      user_id: row.user_id,
      created_at: isoTime(row.created_at),
      updated_at: isoTime(row.updated_at),
    };
  }

  details(row: Pick<Cardholder, 'id' | 'details_sealed'>): CardholderDetails {
    const details = JSON.parse(this.sealer.open(row.details_sealed, detailsAad(row.id))) as CardholderDetails;
    // Rows made before unknown names were null kept them as "".
    return { ...details, first_name: details.first_name || null, last_name: details.last_name || null };
  }

  private seal(id: string, details: CardholderDetails): string {
    return this.sealer.seal(JSON.stringify(details), detailsAad(id));
  }
}

/** Details are sealed bound to their row: copied onto another, they do not open. */
const detailsAad = (id: string) => `cardholders.details:${id}`;

/** HMAC-SHA-256 of the lowercased email: an email is low-entropy, so a plain hash would be guessable. */
function emailDigestUnder(key: Buffer, email: string): string {
  return createHmac('sha256', key).update(`cardholder-email.v1|${email.trim().toLowerCase()}`).digest('hex');
}

/** The sealed cardholder details (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  { table: 'cardholders', column: 'details_sealed', key: ['id'], aad: (row) => detailsAad(String(row.id)) },
];
