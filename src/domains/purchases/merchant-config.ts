import type { Clock } from '../../core/clock.ts';
import { isoTime } from '../../core/clock.ts';
import { type Env, integer } from '../../core/env.ts';
import { type OutboundConfig, operatorPolicy } from '../../core/http/policy.ts';
import { type DestinationPolicy, serviceUrlProblem } from '../../core/http/ssrf.ts';
import { newId } from '../../core/ids.ts';
import { invalid } from '../../core/refusal.ts';
import type { Sealer } from '../../core/sealer.ts';
import { isLivemode } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { MerchantRow } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import { DEFAULT_CEILING_RULE } from './merchants/acp/protocol.ts';
import { AcpMerchant } from './merchants/acp.ts';
import { allMerchants, deleteMerchant, insertMerchant, merchantBySlug } from './merchants-store.ts';

/** `ACP_*` settings (README settings table; docs/acp.md). */
export interface AcpConfig {
  /** Each request to a merchant must be answered within this. */
  timeoutMs: number;
  /** Headroom of a not-yet-final quote's ceiling over its priced part, in basis points. */
  ceilingMarginBps: number;
}

export function loadAcpConfig(env: Env): AcpConfig {
  return {
    timeoutMs: integer(env, 'ACP_TIMEOUT_MS', 10_000, 100, 120_000),
    ceilingMarginBps: integer(env, 'ACP_CEILING_MARGIN_BPS', DEFAULT_CEILING_RULE.marginBps, 0, 10_000),
  };
}

/** Slugs of the built-in sandbox merchants (sandbox.ts): a configured merchant may not take one. */
export const SANDBOX_SLUGS = ['retail', 'grocery', 'coffee', 'paris-bakery'] as const;

const SLUG = /^[a-z0-9-]{2,40}$/;
const COUNTRY = /^[A-Z]{2}$/;
const CURRENCY = /^[a-z]{3}$/;
/** Printable ASCII without spaces: what an HTTP header and a shell can carry unchanged. */
const CREDENTIAL = /^[\x21-\x7e]{8,1000}$/;

export interface NewMerchant {
  slug: string;
  name: string;
  acpUrl: string;
  apiKey: string;
  webhookSecret?: string | null | undefined;
  countries?: string[] | undefined;
  currency?: string | undefined;
  /** Its merchant category code (four digits), what spending controls judge. */
  mcc?: string | undefined;
}

/** A configured merchant as operators see it: never its API key or webhook secret. */
export interface MerchantSummary {
  object: 'merchant';
  id: string;
  slug: string;
  name: string;
  protocol: 'acp';
  acp_url: string;
  countries: string[];
  currency: string;
  mcc: string | null;
  livemode: boolean;
  /** Whether order webhooks are accepted (a webhook secret is set). */
  webhooks: boolean;
  created_at: string;
}

export interface MerchantConfigDeps {
  db: Db;
  clock: Clock;
  sealer: Sealer;
  /** Where merchants may be reached: the webhook destination rules, production mode (ssrf.ts). */
  /** Where merchants may be reached: the operator's outbound policy (core/http/policy.ts). */
  outbound: OutboundConfig;
  acp?: AcpConfig;
}

/**
 * The merchants an operator configured (`purser merchant …`), stored in `merchants` with the API
 * key and webhook secret sealed, each bound to its slug as additional data. These are production
 * merchants: they are reached under the operator's outbound policy, which allows a loopback or
 * private address only to a host named in `OUTBOUND_ALLOWED_PRIVATE_HOSTS` (a merchant inside the
 * operator's network) or on a developer's machine, and plain http only there.
 */
export class MerchantConfigs {
  private readonly policy: DestinationPolicy;
  private readonly acp: AcpConfig;
  private readonly instances = new Map<string, { id: string; merchant: AcpMerchant }>();

  constructor(private readonly deps: MerchantConfigDeps) {
    this.policy = operatorPolicy(deps.outbound);
    this.acp = deps.acp ?? loadAcpConfig({});
  }

  async add(input: NewMerchant): Promise<MerchantSummary> {
    const fieldErrors: Record<string, string> = {};
    const slug = input.slug.trim();
    if (!SLUG.test(slug)) fieldErrors.slug = 'must be 2 to 40 of a-z, 0-9 and -';
    else if ((SANDBOX_SLUGS as readonly string[]).includes(slug)) {
      fieldErrors.slug = `is a built-in sandbox merchant (${SANDBOX_SLUGS.join(', ')})`;
    }
    const name = input.name.trim();
    if (name.length < 1 || name.length > 100) fieldErrors.name = 'must be 1 to 100 characters';
    const urlError = this.acpUrlProblem(input.acpUrl);
    if (urlError) fieldErrors.acp_url = urlError;
    if (!CREDENTIAL.test(input.apiKey))
      fieldErrors.api_key = 'must be 8 to 1000 printable characters without spaces';
    const webhookSecret = input.webhookSecret ?? null;
    if (webhookSecret !== null && !CREDENTIAL.test(webhookSecret)) {
      fieldErrors.webhook_secret = 'must be 8 to 1000 printable characters without spaces';
    }
    const countries = (input.countries ?? ['US']).map((c) => c.trim().toUpperCase());
    if (countries.length === 0 || countries.some((c) => !COUNTRY.test(c))) {
      fieldErrors.countries = 'must be ISO 3166-1 alpha-2 codes, e.g. US';
    }
    const currency = (input.currency ?? 'usd').trim().toLowerCase();
    if (!CURRENCY.test(currency)) fieldErrors.currency = 'must be an ISO 4217 code, e.g. usd';
    const mcc = input.mcc?.trim() || null;
    if (mcc !== null && !/^[0-9]{4}$/.test(mcc))
      fieldErrors.mcc = 'must be a four-digit merchant category code (ISO 18245), e.g. 5411';
    if (Object.keys(fieldErrors).length > 0) throw invalid('The merchant is not valid.', fieldErrors);

    if (await this.findRow(slug)) {
      throw taken(slug);
    }
    const row: MerchantRow = {
      id: newId('mch'),
      slug,
      name,
      protocol: 'acp',
      acp_url: input.acpUrl.trim(),
      api_key_sealed: this.deps.sealer.seal(input.apiKey, sealedFor(slug, 'api_key')),
      webhook_secret_sealed:
        webhookSecret === null
          ? null
          : this.deps.sealer.seal(webhookSecret, sealedFor(slug, 'webhook_secret')),
      countries: JSON.stringify([...new Set(countries)]),
      currency,
      mcc,
      livemode: 1,
      created_at: this.deps.clock.now(),
    };
    try {
      await insertMerchant(this.deps.db, row);
    } catch (error) {
      // Two adds of one slug at once: the unique index decides.
      if (await this.findRow(slug)) {
        throw taken(slug);
      }
      throw error;
    }
    return summary(row);
  }

  async list(): Promise<MerchantSummary[]> {
    const rows = await allMerchants(this.deps.db);
    return rows.map(summary);
  }

  /** The merchant of this slug as operators see it, or undefined when none has it. */
  async find(slug: string): Promise<MerchantSummary | undefined> {
    const row = await this.findRow(slug);
    return row && summary(row);
  }

  /** Removes a merchant; false when there was none. Orders already placed keep their slug. */
  remove(slug: string): Promise<boolean> {
    return deleteMerchant(this.deps.db, slug);
  }

  /** The merchant as the purchase loop uses it, or null when no merchant has this slug. */
  async load(slug: string): Promise<AcpMerchant | null> {
    const row = await this.findRow(slug);
    return row ? this.instance(row) : null;
  }

  /**
   * Every configured merchant, for the purchase loop's directory (`PurchaseService.useMerchants`).
   * Rows are read each time (a merchant added or removed by the CLI shows at once); the adapters
   * are kept per row, so their product feed cache lives on.
   */
  async all(): Promise<AcpMerchant[]> {
    const rows = await allMerchants(this.deps.db);
    return rows.map((row) => this.instance(row));
  }

  private instance(row: MerchantRow): AcpMerchant {
    const kept = this.instances.get(row.slug);
    if (kept && kept.id === row.id) return kept.merchant;
    const merchant = this.build(row);
    this.instances.set(row.slug, { id: row.id, merchant });
    return merchant;
  }

  private build(row: MerchantRow): AcpMerchant {
    return new AcpMerchant(
      {
        slug: row.slug,
        name: row.name,
        acpUrl: row.acp_url,
        apiKey: this.deps.sealer.open(row.api_key_sealed, sealedFor(row.slug, 'api_key')),
        countries: JSON.parse(row.countries) as string[],
        currency: row.currency,
        mcc: row.mcc,
        webhookSecret: this.webhookSecretOf(row),
      },
      {
        clock: this.deps.clock,
        policy: this.policy,
        resolveHost: this.deps.outbound.resolveHost,
        timeoutMs: this.acp.timeoutMs,
        ceiling: { ...DEFAULT_CEILING_RULE, marginBps: this.acp.ceilingMarginBps },
      },
    );
  }

  /** The webhook secret of a merchant: undefined when there is no such merchant, null when none is set. */
  async webhookSecret(slug: string): Promise<string | null | undefined> {
    const row = await this.findRow(slug);
    return row ? this.webhookSecretOf(row) : undefined;
  }

  private webhookSecretOf(row: MerchantRow): string | null {
    return row.webhook_secret_sealed === null
      ? null
      : this.deps.sealer.open(row.webhook_secret_sealed, sealedFor(row.slug, 'webhook_secret'));
  }

  private findRow(slug: string): Promise<MerchantRow | undefined> {
    return merchantBySlug(this.deps.db, slug);
  }

  /** What is wrong with a merchant URL, knowable without DNS (the address is checked per request). */
  private acpUrlProblem(raw: string): string | null {
    const problem = serviceUrlProblem(raw.trim(), this.policy);
    if (problem) return problem;
    if (new URL(raw.trim()).search) return 'must not contain a query string';
    return null;
  }
}

function taken(slug: string) {
  return invalid(`A merchant with the slug ${slug} already exists.`, { slug: 'is already taken' });
}

/** The additional data a sealed merchant credential is bound to: copied to another row, it does not open. */
function sealedFor(slug: string, what: 'api_key' | 'webhook_secret'): string {
  return `merchant:${slug}:${what}`;
}

function summary(row: MerchantRow): MerchantSummary {
  return {
    object: 'merchant',
    id: row.id,
    slug: row.slug,
    name: row.name,
    protocol: row.protocol,
    acp_url: row.acp_url,
    countries: JSON.parse(row.countries) as string[],
    currency: row.currency,
    mcc: row.mcc,
    livemode: isLivemode(row.livemode),
    webhooks: row.webhook_secret_sealed !== null,
    created_at: isoTime(Number(row.created_at)),
  };
}

/** Merchant credentials sealed under the merchant's slug (core/cli re-seals them after a key rotation). */
export const SEALED_COLUMNS: SealedColumn[] = (['api_key', 'webhook_secret'] as const).map((what) => ({
  table: 'merchants',
  column: `${what}_sealed`,
  key: ['id'],
  aad: (row) => sealedFor(String(row.slug), what),
}));
