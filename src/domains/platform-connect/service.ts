import { type Clock, HOUR, isoTime } from '../../core/clock.ts';
import { digest } from '../../core/crypto.ts';
import { newId, randomToken } from '../../core/ids.ts';
import { cursorOf, pageOf } from '../../core/pagination.ts';
import { missing, Refusal } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode, livemodeColumn } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import type { PlatformConnectSessionRow } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { Principal } from '../auth/index.ts';
import type { EventEmitter } from '../cards/index.ts';
import type { MemberService, SignedInMember } from '../members/index.ts';
import type { CreatedOrganization, OrgService } from '../orgs/index.ts';
import { returnAddress } from '../orgs/index.ts';
import type { PlatformConnectRefusalCode } from './index.ts';
import * as store from './store.ts';

/** How long a platform connect link works (docs/platform-connect.md). */
export const PLATFORM_CONNECT_TTL_MS = 1 * HOUR;

type Session = PlatformConnectSessionRow;

export interface PlatformConnectSessionObject {
  object: 'platform_connect_session';
  id: string;
  url: string | null;
  status: 'open' | 'completed' | 'expired';
  state: string | null;
  return_url: string;
  connected_organization_id: string | null;
  livemode: boolean;
  expires_at: string;
  completed_at: string | null;
  created_at: string;
}

export type PlatformConnectProblem = 'unknown' | 'expired';

export interface PlatformConnectView {
  session: Session;
  platformName: string;
  returnTo: string;
}

/** What the approving member chose: one of the organizations they own, or a new one. */
export type ConnectChoice = { organizationId: string } | { newOrganizationName: string };

export type ApproveResult =
  | { outcome: 'refused'; reason: string }
  | { outcome: 'connected'; redirect: string; created: CreatedOrganization | null };

/**
 * Hosted platform connect (issue 14, spec §6 `platform_connect_session.completed`). A platform opens
 * a session; a company's member signs in on the page (members/service.ts) and connects one of the
 * organizations they own, or creates one. The connection, the completed session and its event (on
 * the platform's organization, never carrying credentials) commit together; the page then returns
 * to `return_url` with `session_id` and `state`.
 */
export class PlatformConnectService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: { baseUrl: string },
    private readonly deps: {
      orgs: OrgService;
      members: Pick<MemberService, 'grantIn'>;
      events: EventEmitter;
      sealer: Sealer;
      formKey: Buffer;
    },
  ) {}

  get formKey(): Buffer {
    return this.deps.formKey;
  }

  /** `POST /api/v2/platform_connect_sessions`. */
  async create(principal: Principal, input: { state?: string; return_url: string }) {
    const token = `pct_${randomToken(24)}`;
    const now = this.clock.now();
    const id = newId('pcs');
    const row: Session = {
      id,
      organization_id: principal.organizationId,
      livemode: livemodeColumn(principal.livemode),
      token_digest: digest(token),
      token_sealed: this.deps.sealer.seal(token, tokenAad(id)),
      state: input.state ?? null,
      return_url: input.return_url,
      status: 'open',
      connected_organization_id: null,
      expires_at: now + PLATFORM_CONNECT_TTL_MS,
      completed_at: null,
      created_at: now,
    };
    await store.insertSession(this.db, row);
    return this.present(row);
  }

  /** `GET /api/v2/platform_connect_sessions/{id}`. */
  async get(principal: Principal, id: string) {
    const owner = { organizationId: principal.organizationId, livemode: livemodeColumn(principal.livemode) };
    const row = await store.sessionOf(this.db, owner, id);
    if (!row) throw missing('No such platform connect session.');
    return this.present(row);
  }

  /** `GET /api/v2/connected_organizations`: newest first, `starting_after` an organization id. */
  async listConnected(principal: Principal, query: { limit: number; starting_after?: string }) {
    let base = store.connections(this.db, {
      organizationId: principal.organizationId,
      livemode: livemodeColumn(principal.livemode),
    });
    const after = await cursorOf(
      query.starting_after,
      (id) => base.where('connected_organization_id', '=', id).executeTakeFirst(),
      'a connected organization',
    );
    if (after !== undefined) {
      base = base.where((eb) =>
        eb.or([
          eb('created_at', '<', after.created_at),
          eb.and([eb('created_at', '=', after.created_at), eb('connected_organization_id', '<', after.id)]),
        ]),
      );
    }
    const rows = await base
      .orderBy('created_at', 'desc')
      .orderBy('connected_organization_id', 'desc')
      .limit(query.limit + 1)
      .execute();
    const page = pageOf(rows, query.limit);
    const names = await this.deps.orgs.organizationNames(page.data.map((row) => row.id));
    return {
      ...page,
      data: page.data.map((row) => ({
        object: 'connected_organization' as const,
        id: row.id,
        name: names.get(row.id) ?? '',
        session_id: row.session_id,
        livemode: principal.livemode,
        connected_at: isoTime(row.created_at),
      })),
    };
  }

  /** The session a link opens, or why it does not; a completed one carries where to go back. */
  async page(
    token: string,
  ): Promise<PlatformConnectView | { completed: true; returnTo: string } | PlatformConnectProblem> {
    if (!/^pct_[A-Za-z0-9]{20,64}$/.test(token)) return 'unknown';
    const session = await store.sessionByTokenDigest(this.db, digest(token));
    if (!session) return 'unknown';
    if (session.status === 'completed') return { completed: true, returnTo: returnAddress(session) };
    if (session.expires_at <= this.clock.now()) return 'expired';
    const platform = await this.deps.orgs.getOrganization(session.organization_id);
    return { session, platformName: platform.name, returnTo: returnAddress(session) };
  }

  /**
   * The member approves: the organization they own (or a new one, with them as its owner) is
   * connected to the platform. Connecting the platform's own organization is refused.
   */
  async approve(session: Session, member: SignedInMember, choice: ConnectChoice): Promise<ApproveResult> {
    let existing: string | null = null;
    if ('organizationId' in choice) {
      const owned = member.organizations.find((o) => o.id === choice.organizationId && o.role === 'owner');
      if (!owned) return { outcome: 'refused', reason: 'Choose an organization you own.' };
      if (owned.id === session.organization_id)
        return { outcome: 'refused', reason: 'This is the platform’s own organization; choose another.' };
      existing = owned.id;
    } else {
      const length = choice.newOrganizationName.trim().length;
      if (length === 0 || length > 100)
        return { outcome: 'refused', reason: 'Name the new organization (1 to 100 characters).' };
    }

    const now = this.clock.now();
    // The session is claimed first, and a new organization made in the same transaction: a second
    // submission (another tab, a double click) finds it completed and leaves no organization behind.
    const outcome = await this.db.transaction().execute(async (trx) => {
      if (!(await store.claimSession(trx, session.id, now))) return null;
      const created =
        'newOrganizationName' in choice
          ? await this.createOwnedOrganization(trx, member, choice.newOrganizationName.trim())
          : null;
      const organizationId = created?.organization_id ?? (existing as string);
      await store.connect(trx, session, organizationId, now);
      await this.deps.events.emit(trx, {
        organizationId: session.organization_id,
        livemode: isLivemode(session.livemode),
        type: 'platform_connect_session.completed',
        data: { session_id: session.id, state: session.state, connected_organization_id: organizationId },
      });
      return { created };
    });
    if (!outcome)
      throw new Refusal<PlatformConnectRefusalCode>(
        'already_completed',
        'This connect session was already completed.',
      );
    return { outcome: 'connected', redirect: returnAddress(session), created: outcome.created };
  }

  /** A new organization with the member as its owner. */
  private async createOwnedOrganization(trx: Executor, member: SignedInMember, name: string) {
    const created = await this.deps.orgs.createOrganizationIn(trx, { name, billingEmail: member.email });
    await this.deps.members.grantIn(trx, created.organization_id, member.id, 'owner');
    return created;
  }

  private present(row: Session): PlatformConnectSessionObject {
    const status = row.status === 'open' && row.expires_at <= this.clock.now() ? 'expired' : row.status;
    const token = status === 'open' ? this.deps.sealer.open(row.token_sealed, tokenAad(row.id)) : null;
    return {
      object: 'platform_connect_session',
      id: row.id,
      url: token === null ? null : `${this.config.baseUrl}/platform-connect/${token}`,
      status,
      state: row.state,
      return_url: row.return_url,
      connected_organization_id: row.connected_organization_id,
      livemode: isLivemode(row.livemode),
      expires_at: isoTime(row.expires_at),
      completed_at: row.completed_at === null ? null : isoTime(row.completed_at),
      created_at: isoTime(row.created_at),
    };
  }
}

const tokenAad = (id: string) => `platform_connect_sessions.token:${id}`;

/** The sealed session tokens (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = [
  {
    table: 'platform_connect_sessions',
    column: 'token_sealed',
    key: ['id'],
    aad: (row) => tokenAad(String(row.id)),
  },
];
