import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/*
 * Table types, written once. Conventions shared by every table:
 * - times are integer milliseconds since the Unix epoch (`*_at`);
 * - booleans are integers 0/1 (the same on SQLite and PostgreSQL);
 * - lists and objects are JSON text;
 * - every row that belongs to an organization carries `livemode`.
 */

export interface OrganizationsTable {
  id: string;
  name: string;
  billing_email: string;
  status: 'active' | 'suspended';
  subscription: 'active' | 'none';
  /** Branded connect email; null fields fall back to the default template. */
  connect_email_subject: string | null;
  connect_email_text: string | null;
  connect_email_html: string | null;
  /** Share of the interchange routed to users as rewards, in basis points (0–10000). */
  reward_share_bps: Generated<number>;
  /** 1 when the organization may reveal production card numbers (a PCI decision; see docs/cards.md). */
  live_card_details: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface ClientsTable {
  id: string;
  organization_id: string;
  livemode: number;
  name: string;
  type: 'confidential' | 'public';
  /** SHA-256 of the secret; null for public clients. */
  secret_digest: string | null;
  /** JSON string[] of OAuth grant types this client may use. */
  grant_types: string;
  /** JSON string[] of registered redirect URIs (user-facing OAuth flow). */
  redirect_uris: string;
  status: 'active' | 'revoked';
  created_at: number;
  revoked_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  livemode: number;
  key_digest: string;
  /** First characters of the key, safe to show (`sk_test_AbCd`). */
  key_prefix: string;
  status: 'active' | 'revoked';
  created_at: number;
  revoked_at: number | null;
}

export interface AccessTokensTable {
  token_digest: string;
  /** `platform`: minted by the client-credentials grant; `connection`: acts for one user. */
  kind: 'platform' | 'connection';
  organization_id: string;
  client_id: string;
  livemode: number;
  connection_id: string | null;
  user_id: string | null;
  /** Refresh-token family of a connection token; the whole family is revoked on reuse. */
  family_id: string | null;
  expires_at: number;
  revoked_at: number | null;
  created_at: number;
  /** RFC 8707: the resource (`{mcp_url}/mcp`) a connection token is for; null for platform tokens. */
  audience: string | null;
}

export interface UsersTable {
  id: string;
  organization_id: string;
  livemode: number;
  email: string | null;
  phone: string | null;
  created_at: number;
}

export interface ConnectAttemptsTable {
  id: string;
  organization_id: string;
  client_id: string;
  livemode: number;
  channel: 'email' | 'phone';
  email: string | null;
  phone: string | null;
  external_user_id: string | null;
  code_digest: string;
  failed_attempts: number;
  /** `pending` until verified; `verified`, `locked` (too many wrong codes) and `undeliverable` are final. */
  status: 'pending' | 'verified' | 'locked' | 'undeliverable';
  expires_at: number;
  created_at: number;
  verified_at: number | null;
}

export interface ConnectionsTable {
  id: string;
  organization_id: string;
  client_id: string;
  user_id: string;
  livemode: number;
  external_user_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface RefreshTokensTable {
  token_digest: string;
  connection_id: string;
  family_id: string;
  expires_at: number;
  /** Set when this token was exchanged; presenting it again is reuse. */
  rotated_at: number | null;
  revoked_at: number | null;
  created_at: number;
  /** The pair this token was exchanged for, sealed, kept only during the retry grace. */
  successor_sealed: string | null;
}

/** One sliding log per rate-limit key: the times (ms) of its admitted hits, as a JSON array. */
export interface RateLimitLogsTable {
  key: string;
  hits: string;
  /** When the newest hit leaves the window; the row is useless after it. */
  expires_at: number;
}

export interface ConsentsTable {
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  terms_version: string | null;
  created_at: number;
  updated_at: number;
}

export interface SentMessagesTable {
  id: string;
  organization_id: string | null;
  livemode: number;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string | null;
  body: string;
  created_at: number;
}

export interface EventsTable {
  id: string;
  organization_id: string;
  livemode: number;
  type: string;
  /** JSON object text: the envelope's `data`, delivered byte for byte. */
  data: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  livemode: number;
  url: string;
  description: string | null;
  /** JSON string[]: exact names, `*`, or prefixes such as `card.*`. */
  enabled_events: string;
  status: 'active' | 'disabled';
  /** The `whsec_…` signing secret sealed with AES-256-GCM (core/sealer). */
  secret_ciphertext: string;
  /** How deliveries are signed: the spec's `Service-Signature`, or Standard Webhooks' headers. */
  signature_scheme: 'purser' | 'standard_webhooks';
  consecutive_failures: number;
  /** Time of the first failure since the last success; null while healthy. */
  failing_since: number | null;
  disabled_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  organization_id: string;
  livemode: number;
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  /** Attempts recorded so far. */
  attempts: number;
  /** When the next attempt is due; while a worker holds the delivery, when its lease ends. */
  next_attempt_at: number;
  /** Set by the claim; results are recorded only by the holder of the current lease. */
  lease_token: string | null;
  /** When the current (or last) lease was taken: the start of the attempt it holds. */
  leased_at: number | null;
  /**
   * Set by a claim that took over a lease never settled: when that interrupted attempt began (the
   * claim records it; see events/store.ts `claimDue`).
   */
  interrupted_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

/** One request of an organization's credential (docs/console.md "API requests"): never a body or secret. */
export interface ApiRequestsTable {
  /** The row's own id, time-ordered (`log_…`): a request id may repeat, a row is one request. */
  id: string;
  organization_id: string;
  livemode: number;
  created_at: number;
  /** The client id of a platform or connection token, or the id of an API key: never the secret. */
  credential: string;
  method: string;
  /** The path without its query string, long segments (tokens) redacted. */
  path: string;
  status: number;
  latency_ms: number;
  /** The request id (`X-Request-Id`): the client's, when it sent one, or the one Purser gave. */
  request_id: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  attempted_at: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first bytes of the response body. */
  response_excerpt: string | null;
  succeeded: number;
  /** 1: the worker making it stopped before it recorded an answer; its outcome is unknown. */
  interrupted: Generated<number>;
}

export interface KycVerificationsTable {
  id: string;
  organization_id: string;
  livemode: number;
  /** One verification per user (users already belong to one organization and mode). */
  user_id: string;
  status:
    | 'awaiting_documents'
    | 'needs_information'
    | 'requires_verification'
    | 'pending'
    | 'approved'
    | 'rejected';
  /** End-user-safe text shown with the status, or null. */
  reason: string | null;
  /** JSON string[] on needs_information, else null. */
  required_fields: string | null;
  document_type: 'drivers_license' | 'state_id' | 'passport' | null;
  issuing_country: string | null;
  /** JSON objects: what the reader read off each side (`extracted`). */
  front_extracted: string | null;
  back_extracted: string | null;
  /** JSON object: fields submitted or confirmed by the user, without the national id number. */
  information: string | null;
  /** HMAC-SHA-256 of the national id number (kept for the review's record), under `national_id_digest_key_id`. */
  national_id_digest: string | null;
  national_id_digest_key_id: string | null;
  /** The number itself, sealed, only until the reviewer has taken the verification; then erased. */
  national_id_sealed: string | null;
  /** When it was sealed (null with it): a number left behind is erased once its time is up. */
  national_id_sealed_at: number | null;
  /** HMAC-SHA-256 of country, document kind and number: finds the same document verified for another user. */
  document_key: string | null;
  /** The key id of `document_key`; `legacy` when an unkeyed digest was erased and must be derived again. */
  document_key_key_id: string | null;
  front_at: number | null;
  back_at: number | null;
  face_scan_at: number | null;
  /** When it last entered pending (the review queue's order). */
  submitted_at: number | null;
  /** When the reviewer took it since; null while the hand-over is owed (the worker retries). */
  review_submitted_at: number | null;
  decided_at: number | null;
  /** The nonce of the newest hosted-page link; older links stop working. */
  link_nonce: string | null;
  /** When that link expires (ms): polls return it unchanged until shortly before. */
  link_expires_at: number | null;
  /** SHA-256 of the open hosted page's session token. */
  session_digest: string | null;
  session_expires_at: number | null;
  /** Bumped on every write: concurrent changes are detected by compare-and-set. */
  version: number;
  created_at: number;
  updated_at: number;
}

export interface KycTransitionsTable {
  id: string;
  verification_id: string;
  from_status: string;
  to_status: string;
  move: string;
  condition: string;
  reason: string | null;
  /** `api`, `hosted_page`, `simulate`, `review:<reviewer>`. */
  actor: string;
  created_at: number;
}

/** Secrets generated once per installation (the encryption key when none is configured on PostgreSQL). */
export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

/** A key that signs (slot `current`) or signed order receipts (domains/receipts). */
export interface ReceiptKeysTable {
  /** The JWK thumbprint of the public key (RFC 7638). */
  kid: string;
  /** `current` for the one key that signs; null once retired. */
  slot: string | null;
  /** The private key (PKCS #8 PEM), sealed; null once retired. */
  private_key_sealed: string | null;
  /** The public key as a JWK (JSON). */
  public_jwk: string;
  created_at: number;
  retired_at: number | null;
  /** Retired keys: from then on no longer published, so receipts they signed no longer verify. */
  expires_at: number | null;
}

/** The receipt of an order placed under a mandate: a compact JWS. */
export interface OrderReceiptsTable {
  order_id: string;
  organization_id: string;
  livemode: number;
  mandate_id: string;
  kid: string;
  jws: string;
  created_at: number;
}

/** The origins allowed to frame the organization's hosted pages, in one mode. */
export interface EmbedOriginsTable {
  organization_id: string;
  livemode: number;
  /** JSON string[] of normalized origins (`https://app.example.com`). */
  origins: string;
  updated_at: number;
}

/** The first answer to a POST sent with an `Idempotency-Key` (core/idempotency.ts). */
export interface IdempotencyKeysTable {
  /** The credential that sent the key: a client id (`cli_…`, for all its platform tokens) or an API key id (`key_…`). */
  credential_id: string;
  method: string;
  /** The request path, without its query string. */
  path: string;
  key: string;
  /** Whose credential it is (for operators; the scope is the credential). */
  organization_id: string;
  livemode: number;
  /** SHA-256 of method, URL and body: the same key with another body is refused. */
  request_digest: string;
  /** Null while the first request runs. */
  status_code: number | null;
  /** The answer's body, sealed (it may hold secrets such as tokens). */
  response: string | null;
  /** Until then a running first request holds the key; after, a retry may take it over. */
  locked_until: number;
  created_at: number;
}

/** An authorization code of the user-facing flow (RFC 6749 §4.1.2): single use, 60 seconds. */
export interface OAuthCodesTable {
  code_digest: string;
  organization_id: string;
  livemode: number;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  /** PKCE S256 challenge (RFC 7636 §4.2). */
  code_challenge: string;
  resource: string;
  scope: string;
  family_id: string;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
}

/** When a Client ID Metadata Document client's document was fetched and until when it is fresh. */
export interface OAuthClientDocumentsTable {
  client_id: string;
  fetched_at: number;
  expires_at: number;
}

export interface Database {
  rate_limit_logs: RateLimitLogsTable;
  idempotency_keys: IdempotencyKeysTable;
  instance_secrets: InstanceSecretsTable;
  receipt_keys: ReceiptKeysTable;
  order_receipts: OrderReceiptsTable;
  organizations: OrganizationsTable;
  embed_origins: EmbedOriginsTable;
  clients: ClientsTable;
  api_keys: ApiKeysTable;
  access_tokens: AccessTokensTable;
  users: UsersTable;
  connect_attempts: ConnectAttemptsTable;
  connections: ConnectionsTable;
  refresh_tokens: RefreshTokensTable;
  consents: ConsentsTable;
  sent_messages: SentMessagesTable;
  kyc_verifications: KycVerificationsTable;
  kyc_transitions: KycTransitionsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  api_requests: ApiRequestsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_transfers: LedgerTransfersTable;
  ledger_account_deltas: LedgerAccountDeltasTable;
  cardholders: CardholdersTable;
  cards: CardsTable;
  card_transactions: CardTransactionsTable;
  user_spending_controls: UserSpendingControlsTable;
  authorization_endpoints: AuthorizationEndpointsTable;
  card_detail_reveals: CardDetailRevealsTable;
  company_wallets: CompanyWalletsTable;
  card_flows: CardFlowsTable;
  chain_addresses: ChainAddressesTable;
  chain_transfers: ChainTransfersTable;
  chain_deposits: ChainDepositsTable;
  chain_cursors: ChainCursorsTable;
  chain_returns: ChainReturnsTable;
  chain_drifts: ChainDriftsTable;
  issuer_reconciliations: IssuerReconciliationsTable;
  oauth_codes: OAuthCodesTable;
  oauth_client_documents: OAuthClientDocumentsTable;
  buy_tokens: BuyTokensTable;
  conversations: ConversationsTable;
  orders: OrdersTable;
  vault_sessions: VaultSessionsTable;
  organization_vault_settings: OrganizationVaultSettingsTable;
  vault_passkeys: VaultPasskeysTable;
  passkey_resets: PasskeyResetsTable;
  mandates: MandatesTable;
  mandate_spends: MandateSpendsTable;
  webauthn_challenges: WebauthnChallengesTable;
  vault_cards: VaultCardsTable;
  checkout_authorizations: CheckoutAuthorizationsTable;
  merchants: MerchantsTable;
  wallet_links: WalletLinksTable;
  wallet_link_settings: WalletLinkSettingsTable;
  wallet_link_actions: WalletLinkActionsTable;
  cardholder_onboarding_sessions: CardholderOnboardingSessionsTable;
  members: MembersTable;
  memberships: MembershipsTable;
  member_sign_ins: MemberSignInsTable;
  member_sessions: MemberSessionsTable;
  platform_connect_sessions: PlatformConnectSessionsTable;
  organization_connections: OrganizationConnectionsTable;
  audit_log: AuditLogTable;
  merchant_account_linking: MerchantAccountLinkingTable;
  merchant_link_sessions: MerchantLinkSessionsTable;
  merchant_accounts: MerchantAccountsTable;
  messaging_oauth_states: MessagingOAuthStatesTable;
  messaging_connections: MessagingConnectionsTable;
}

export type Organization = Selectable<OrganizationsTable>;
export type Client = Selectable<ClientsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type AccessToken = Selectable<AccessTokensTable>;
export type User = Selectable<UsersTable>;
export type ConnectAttempt = Selectable<ConnectAttemptsTable>;
export type Connection = Selectable<ConnectionsTable>;
export type Consent = Selectable<ConsentsTable>;
export type SentMessage = Selectable<SentMessagesTable>;
export type NewOrganization = Insertable<OrganizationsTable>;
export type OrganizationUpdate = Updateable<OrganizationsTable>;

/** A ledger account: integer cents, totals cached by the ledger alone (see domains/ledger). */
export interface LedgerAccountsTable {
  id: string;
  organization_id: string;
  livemode: number;
  kind:
    | 'company_pool'
    | 'user_wallet'
    | 'card'
    | 'funding_source'
    | 'network_settlement'
    | 'rewards'
    | 'fees';
  /** The organization, user or card the account belongs to. */
  owner_id: string;
  /** Bit set of `AccountFlags` (debits must not exceed credits, or the reverse). */
  flags: number;
  currency: string;
  debits_pending: number;
  debits_posted: number;
  credits_pending: number;
  credits_posted: number;
  created_at: number;
}

/**
 * A change to a mirror account's totals not yet folded into them (PostgreSQL only; docs/ledger.md,
 * "Mirror accounts"): the account's totals are its row's plus the sum of these.
 */
export interface LedgerAccountDeltasTable {
  account_id: string;
  debits_pending: number;
  debits_posted: number;
  credits_pending: number;
  credits_posted: number;
}

/** A transfer: rows are never changed, except a pending hold's `pending_state` when it ends. */
export interface LedgerTransfersTable {
  /** Chosen by the caller, so that a retried transfer is recognised. */
  id: string;
  organization_id: string;
  livemode: number;
  kind: 'posted' | 'pending' | 'post_pending' | 'void_pending';
  debit_account_id: string;
  credit_account_id: string;
  amount: number;
  /** The hold a `post_pending` or `void_pending` ends. */
  pending_id: string | null;
  /** On `pending` rows only: `open` until posted, voided or expired. */
  pending_state: 'open' | 'posted' | 'voided' | 'expired' | null;
  timeout_at: number | null;
  /** What the money moved for (`card_funding`, `authorization`, …). */
  code: string;
  metadata: string | null;
  created_at: number;
}

export interface CardholdersTable {
  id: string;
  organization_id: string;
  livemode: number;
  /** The connected user this cardholder is, once linked (both ways: one cardholder per user). */
  user_id: string | null;
  external_user_id: string | null;
  /** Sealed JSON: first_name, last_name, email, date_of_birth, phone_number (personal data). */
  details_sealed: string;
  /** Keyed digest of the lowercased email, to find the cardholder a person claims (onboarding). */
  email_digest: string | null;
  created_at: number;
  updated_at: number;
}

export interface CardsTable {
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  cardholder_id: string;
  /** The client whose token created it. */
  client_id: string;
  type: 'single_use' | 'multi_use';
  status: 'ACTIVE' | 'PAUSED' | 'CLOSED';
  last4: string;
  /** `MM/YY`. */
  expiry: string;
  pan_sealed: string;
  cvv_sealed: string;
  /** What the card has been funded with in all; its balance is in the ledger. */
  spend_limit_cents: number;
  memo: string | null;
  closed_reason: 'manual' | 'single_use_spent' | 'balance_exhausted' | 'provider_closed' | null;
  /** The issuer's token for the card (Lithic), null on the built-in sandbox network. */
  provider_ref: string | null;
  /** The company-funded transfer that created it, null for direct issuance. */
  transfer_id: string | null;
  /** Its spending controls as the API took them (JSON, cards/controls.ts), null when none. */
  spending_controls: string | null;
  /** The spending mandate the card is held to (docs/mandates.md "Purchases"), null when none. */
  mandate_id: string | null;
  created_at: number;
  updated_at: number;
}

/** A user's spending controls, applying to every card of the user (cards/controls.ts). */
export interface UserSpendingControlsTable {
  user_id: string;
  organization_id: string;
  livemode: number;
  /** JSON, as the API took them. */
  controls: string;
  created_at: number;
  updated_at: number;
}

/** The platform's real-time authorization endpoint, one per organization and mode (docs/cards.md). */
export interface AuthorizationEndpointsTable {
  id: string;
  organization_id: string;
  livemode: number;
  url: string;
  timeout_ms: number;
  on_timeout: 'approve' | 'decline';
  /** The `whsec_…` signing secret, sealed under the row's id. */
  secret_ciphertext: string;
  created_at: number;
  updated_at: number;
}

export interface CardTransactionsTable {
  /** The network's transaction id, stable from authorization through clearing. */
  id: string;
  organization_id: string;
  livemode: number;
  card_id: string;
  user_id: string;
  status: 'PENDING' | 'SETTLED' | 'VOIDED' | 'DECLINED';
  /** Authorized amount (what is still held while PENDING: the open hold, `hold_id`). */
  amount_cents: number;
  /** Final amount once SETTLED. */
  settled_cents: number | null;
  merchant: string;
  mcc: string | null;
  decline_reason: string | null;
  /** The ledger hold of an approved authorization. */
  hold_id: string | null;
  /** A PENDING authorization not cleared by then is voided by the worker. */
  expires_at: number | null;
  created_at: number;
  updated_at: number;
  /** A charge, or money back from a merchant (`refund`, SETTLED at once). */
  type: Generated<'purchase' | 'refund'>;
  /** The purchase a refund gives money back for; null for a purchase (and an issuer's unmatched credit). */
  original_transaction_id: string | null;
  /** Of a purchase: what its refunds gave back so far, never more than it settled. */
  refunded_cents: Generated<number>;
  /** The issuer's settled amount as last applied (negative for a credit); null outside an issuer. */
  issuer_settled_cents: number | null;
  /** The version of the issuer's report last applied: an older or equal one changes nothing. */
  issuer_version: number | null;
  /** 1 when the issuer settled money the books held no authorization for (a force post). */
  force_posted: Generated<number>;
  /** What voids (partial or whole, and expiry) released of the authorization, in all. */
  voided_cents: Generated<number>;
  /** Authorization requests approved for it: the first, then each incremental one. */
  authorizations: Generated<number>;
  /** The merchant's country (ISO 3166-1 alpha-2), when the network said. */
  merchant_country: string | null;
  /** Of a decline by spending controls: the control that refused it (JSON, cards/controls.ts). */
  spending_control: string | null;
  /** Who decided the authorization: the engine, the platform, or its timeout; null when none was asked (refunds, force posts). */
  authorization_decided_by: 'engine' | 'platform' | 'timeout' | null;
  /** The platform's own reason for its decline, as it gave it. */
  platform_reason: string | null;
}

/** Every reveal of a card number, for the audit. */
export interface CardDetailRevealsTable {
  id: string;
  organization_id: string;
  livemode: number;
  card_id: string;
  client_id: string;
  request_id: string;
  created_at: number;
}

/** An organization's company wallet per mode: settings only, its money is the ledger's `company_pool`. */
export interface CompanyWalletsTable {
  organization_id: string;
  livemode: number;
  /** `wallet.balance.low` fires when the pool's balance falls under this. */
  low_balance_threshold_cents: number;
  /** 1 once `wallet.balance.low` fired for the current crossing; 0 again when the balance recovers. */
  low_balance_notified: number;
  /** The fee on each company-funded transfer: basis points of what is transferred, plus fixed cents. */
  fee_bps: number;
  fee_fixed_cents: number;
  created_at: number;
  updated_at: number;
}

export type CardFlowStatus =
  | 'awaiting_collection'
  | 'started'
  | 'approved'
  | 'initiated'
  | 'completed'
  | 'card_created'
  | 'failed'
  | 'card_failed';

/** A company-funded card flow (spec §3): the transfer and the card it ends in. Its id is the transfer id. */
export interface CardFlowsTable {
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  cardholder_id: string;
  client_id: string;
  external_user_id: string | null;
  card_type: 'single_use' | 'multi_use';
  /** The card's amount: what is transferred plus what is netted from released funds. */
  amount_cents: number;
  fee_cents: number;
  transfer_cents: number;
  netted_cents: number;
  ack_required: number;
  ack_deadline: number | null;
  status: CardFlowStatus;
  approved_via: 'api' | 'auto' | null;
  tx_hash: string | null;
  failure_reason: string | null;
  /** Chosen at start, so a retried mint asks the issuer for the same card. */
  card_id: string;
  /** The card's spending controls as asked at start (normalized JSON), set on it at mint; null: none. */
  spending_controls: string | null;
  created_at: number;
  updated_at: number;
}

/** A cardholder's purchase token (`POST /api/v1/cardholders/{id}/buy_token`), stored as a digest. */
export interface BuyTokensTable {
  id: string;
  organization_id: string;
  livemode: number;
  cardholder_id: string;
  token_digest: string;
  expires_at: number;
  created_at: number;
}

/** A `/buy` conversation: one buyer through one client; carts and transcript in `state` (JSON). */
export interface ConversationsTable {
  id: string;
  organization_id: string;
  livemode: number;
  /** The connected user, or the cardholder of a buy token. */
  buyer_id: string;
  client_id: string;
  status: string;
  state: string;
  /** Set while a turn runs (the turn lock); a turn older than the turn timeout is taken over. */
  turn_started_at: number | null;
  /** The cart hashes the running turn confirms (JSON), so a repeat of them says `in_progress`. */
  turn_confirm: string | null;
  created_at: number;
  updated_at: number;
}

/** An order: one confirmed cart, and the state machine that charges for it exactly once. */
export interface OrdersTable {
  id: string;
  organization_id: string;
  livemode: number;
  conversation_id: string;
  buyer_id: string;
  /** The user whose wallet pays (for a buy token: the cardholder's user). */
  user_id: string;
  client_id: string;
  merchant: string;
  merchant_name: string;
  /** The confirmed cart object (JSON). */
  cart: string;
  cart_hash: string;
  /** `conversation_id:hash` while the order is live or placed; null once it failed. */
  placement_key: string | null;
  currency: string;
  total_cents: number;
  authorized_cents: number;
  final_cents: number | null;
  status: 'pending' | 'placed' | 'confirmed' | 'failed';
  charge_status: 'none' | 'confirming' | 'settled' | 'unknown';
  /** Where the goods are, as the merchant reports (purchases/fulfillment.ts); null until placed. */
  fulfillment_status: 'unfulfilled' | 'processing' | 'shipped' | 'completed' | 'canceled' | null;
  step: 'created' | 'card_issued' | 'placed' | 'done';
  decline_code: string | null;
  card_id: string | null;
  merchant_order_id: string | null;
  merchant_ref: string | null;
  next_check_at: number | null;
  placed_at: number | null;
  confirmed_at: number | null;
  created_at: number;
  updated_at: number;
}
/** A merchant an operator configured (issue 11; domains/purchases/merchant-config.ts). */
export interface MerchantsTable {
  /** `mch_…`. */
  id: string;
  /** The rail id carts carry as `merchant`: lowercase `[a-z0-9-]{2,40}`, unique. */
  slug: string;
  name: string;
  protocol: 'acp';
  /** The base URL of the merchant's Agentic Commerce Protocol API. */
  acp_url: string;
  /** The merchant's API key, sealed (core/sealer) with the additional data `merchant:<slug>:api_key`. */
  api_key_sealed: string;
  /** The order-webhook signing secret, sealed with `merchant:<slug>:webhook_secret`; null: webhooks refused. */
  webhook_secret_sealed: string | null;
  /** JSON array of ISO 3166-1 alpha-2 codes the merchant ships to. */
  countries: string;
  /** ISO 4217, lowercase (ACP's spelling). */
  currency: string;
  /** Its merchant category code (ISO 18245), for spending controls; null when not configured. */
  mcc: string | null;
  /** 1: configured merchants take production money only. */
  livemode: number;
  created_at: number;
}

export type MerchantRow = Selectable<MerchantsTable>;
/** An address Purser derived on the EVM rail (funding/chain/keys.ts): an organization's pool or a user's deposit address. */
export interface ChainAddressesTable {
  /** Lower-case hex. */
  address: string;
  organization_id: string;
  livemode: number;
  kind: 'pool' | 'user';
  /** The organization (pool) or the user (deposit address). */
  owner_id: string;
  created_at: number;
  /** Set when a `CHAIN_POOL_KEY` rotation replaced the address (migration 0049): it is no longer used. */
  retired_at: number | null;
}

/**
 * A transfer the pool signs (to a user for a card flow, or a return to itself that the user's address
 * authorized), kept before it is broadcast: a resubmission sends the same bytes.
 */
export interface ChainTransfersTable {
  /** The card flow's transfer id, or a return's attempt (`<release id>.<attempt>`). */
  transfer_id: string;
  chain_id: number;
  /** The signer: the pool, whose nonce the transaction takes. */
  from_address: string;
  /** Where the tokens go: the user's deposit address, or the pool for a return. */
  to_address: string;
  /** Token units, a decimal string (uint256). */
  units: string;
  nonce: number;
  tx_hash: string;
  /** The signed transaction (public once broadcast; no secret). */
  raw_tx: string;
  /**
   * Not mined within `CHAIN_TRANSFER_TIMEOUT_SECONDS`: a replacement at the same nonce (a zero-value
   * transfer to itself, higher fees), signed and kept before it is broadcast. Once the nonce is used
   * by anything but the transfer, the transfer can never be mined and the flow fails.
   */
  cancel_tx_hash: string | null;
  cancel_raw_tx: string | null;
  created_at: number;
}

/** A stablecoin `Transfer` log to one of Purser's addresses, credited once. */
export interface ChainDepositsTable {
  tx_hash: string;
  log_index: number;
  chain_id: number;
  block_number: number;
  address: string;
  from_address: string;
  organization_id: string;
  livemode: number;
  kind: 'pool' | 'user';
  owner_id: string;
  /** What arrived, in token units (a decimal string). */
  units: string;
  /** What was credited: whole cents, rounded down (docs/funding.md). */
  credited_cents: number;
  created_at: number;
}

export type ChainReturnStatus = 'pending' | 'sent' | 'returned';

/**
 * Company money a card released, on its way back from the user's deposit address to the pool
 * (funding/returns.ts): held in the ledger (card → pool, `id` the hold) until the tokens arrive.
 */
export interface ChainReturnsTable {
  /** The release: the ledger hold's id. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  amount_cents: number;
  status: ChainReturnStatus;
  /** The attempt being made; a failed one (reverted, never mined) is followed by the next. */
  attempt: number;
  /** The current attempt's transaction, once signed. */
  tx_hash: string | null;
  /** `transfer.released`'s data (JSON), fired with `tx_hash` when the tokens arrive. */
  event_data: string;
  /** When a pending attempt may be made (a failed one waits before the next). */
  next_attempt_at: number;
  created_at: number;
  updated_at: number;
}

/** An address whose tokens disagree with the books at the last `chain reconcile` of the worker. */
export interface ChainDriftsTable {
  address: string;
  organization_id: string;
  kind: 'pool' | 'user';
  owner_id: string;
  /** Token units (decimal strings): what the chain holds, and what the books say it should. */
  chain_units: string;
  ledger_units: string;
  /** When this drift (at these amounts) was first seen; when it was last confirmed. */
  since: number;
  checked_at: number;
}

/** What the worker's last `issuer reconcile` found (CARD_ISSUER=lithic), read by /metrics. */
export interface IssuerReconciliationsTable {
  issuer: string;
  checked_at: number;
  /** The oldest transaction creation compared (null: all). */
  since: number | null;
  /** How many of the issuer's transactions were compared. */
  compared: number;
  /** The drifts found, as `issuer reconcile --json` names them (JSON). */
  drifts: string;
}

/** How far the deposit watcher has read a chain: every block up to `block_number` is done. */
export interface ChainCursorsTable {
  name: string;
  block_number: number;
  updated_at: number;
}

/** A hosted card vault session (`POST /api/v2/checkout/vault_link`); its link token as a digest. */
export interface VaultSessionsTable {
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  token_digest: string;
  /** What took the link (`provider`, `sms` or `email`); null when the platform delivers it. */
  sent_to: string | null;
  expires_at: number;
  created_at: number;
  /** When a passkey was registered or verified on this session's page: it may then add cards. */
  verified_at: number | null;
}

/** A wallet link (issue 13; domains/wallet-links): the hosted wallet page for one user, until it expires. */
export interface WalletLinksTable {
  /** `wl_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  /** The platform client that created it. */
  client_id: string;
  user_id: string;
  /** SHA-256 of the link's token (`wlt_…`); the token is only in the `url` answered at creation. */
  token_digest: string;
  expires_at: number;
  created_at: number;
}

/** The operator's vault setting of an organization (`purser org update --branded-vault on|off`). */
export interface OrganizationVaultSettingsTable {
  organization_id: string;
  branded_vault: number;
  updated_at: number;
  /** `purser org update --approval-threshold CENTS|off`: confirms above it need the user's approval. */
  approval_threshold_cents: number | null;
  /** `purser org update --mandate-overflow`: a purchase outside a mandate's terms declines (null) or asks for approval. */
  mandate_overflow: 'decline' | 'approval' | null;
}

/** A user's passkey (WebAuthn credential) registered on the hosted vault. */
export interface VaultPasskeysTable {
  /** `pk_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  /** The credential id, base64url. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter, seen so far: an assertion must raise it (or both stay 0). */
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

/** A passkey reset the platform started for a user (docs/vault.md "Passkey recovery"). */
/** A spending mandate (docs/mandates.md): terms a user signed for one app to buy within. */
export interface MandatesTable {
  /** `mdt_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  /** The OAuth app the mandate lets buy (`terms.client_id`). */
  client_id: string;
  /** domains/mandates/states.ts: `pending_approval` → `active` → `exhausted` | `expired` | `revoked`. */
  status: 'pending_approval' | 'active' | 'exhausted' | 'expired' | 'revoked';
  /** The terms as the API shows them (JSON): every field present, an absent optional one null. */
  terms: string;
  /** Lowercase hex SHA-256 of the terms' RFC 8785 canonical JSON: what the passkey signed. */
  terms_hash: string;
  /** `terms.budget`, as columns: the budget rules read them on every charge. */
  budget_cents: number;
  budget_interval: 'daily' | 'weekly' | 'monthly' | 'total';
  /** `terms.expires_at` in ms. */
  expires_at: number;
  /** The passkey assertion that approved the terms (JSON: credential id, response, challenge), kept as proof. */
  approval: string | null;
  created_at: number;
  approved_at: number | null;
  /** When it left `active` (or `pending_approval`): exhausted, expired or revoked. */
  ended_at: number | null;
}

/** What one charge under a mandate took from its budget, and what refunds and voids gave back. */
export interface MandateSpendsTable {
  /** `mds_…`. */
  id: string;
  mandate_id: string;
  /** The caller's id of the charge (an order, a card transaction): one spend per charge. */
  reference: string;
  amount_cents: number;
  returned_cents: number;
  merchant: string | null;
  category: string | null;
  /** When the charge was made (ms): the budget window it counts in. */
  at: number;
}

export interface PasskeyResetsTable {
  /** `pkr_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  /** The platform client that started it. */
  client_id: string;
  /** SHA-256 of the page link's token (`pkrt_…`); the token is only in the `url` answered at creation. */
  token_digest: string;
  /** `pending` → `verified` (code proven) → `completed`; or `canceled` (a newer reset) or `locked`. */
  status: 'pending' | 'verified' | 'completed' | 'canceled' | 'locked';
  /** Where the code went: `email` or `phone`; null until the user asked for one. */
  channel: 'email' | 'phone' | null;
  /** SHA-256 of the latest one-time code. */
  code_digest: string | null;
  code_expires_at: number | null;
  code_sent_at: number | null;
  codes_sent: number;
  failed_attempts: number;
  /** SHA-256 of the cookie given to the browser that proved the code: only it registers the passkey. */
  proof_digest: string | null;
  verified_at: number | null;
  completed_at: number | null;
  /** How many passkeys the completed reset removed. */
  passkeys_removed: number | null;
  expires_at: number;
  created_at: number;
}

/** A WebAuthn challenge: single-use, short-lived, bound to one page (a vault session or an approval). */
export interface WebauthnChallengesTable {
  challenge: string;
  binding: string;
  purpose: string;
  expires_at: number;
  used_at: number | null;
  created_at: number;
}

/** A card of the user's own kept in the vault: number and expiry sealed; only brand and last4 in clear. */
export interface VaultCardsTable {
  /** `vc_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  sealed: string;
  created_at: number;
}

/** A `/buy` confirm paused for the user's approval (docs/purchases.md, Approvals). */
export interface CheckoutAuthorizationsTable {
  /** `cha_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  conversation_id: string;
  buyer_id: string;
  client_id: string;
  user_id: string;
  cart_hash: string;
  /** The stored cart (lines, quote) and delivery address the user approves, JSON. */
  cart: string;
  /** What the approval authorizes: the cart's ceiling, else its total. */
  amount_cents: number;
  currency: string;
  /** Why approval is needed: `vault`, `added_card` or `threshold`. */
  reason: string;
  payment_source: string;
  vault_card_id: string | null;
  /** SHA-256 of the approval page's token (`apv_…`). */
  token_digest: string;
  status: 'pending' | 'approved' | 'declined' | 'expired';
  order_id: string | null;
  expires_at: number;
  decided_at: number | null;
  /** When a vault card's charge was trued up to what the order cost (`vault_card_refund`). */
  card_settled_at: number | null;
  created_at: number;
}

/** The operator's switch for wallet links (`purser org update --wallet-links on|off`); absent: off. */
export interface WalletLinkSettingsTable {
  organization_id: string;
  enabled: number;
  updated_at: number;
}

/** What the user did on a wallet page; `nonce` is the page's one-time action nonce (unique per link). */
export interface WalletLinkActionsTable {
  /** `wla_…`. */
  id: string;
  link_id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  nonce: string;
  kind: 'test_funds' | 'payment_approval';
  /** The merchant named by the approval request (`?merchant=`); null for test funds. */
  merchant: string | null;
  amount_cents: number;
  /** The user's answer to a payment approval; null for test funds. */
  decision: 'approved' | 'declined' | null;
  created_at: number;
}

export type WalletLinkRow = Selectable<WalletLinksTable>;
export type WalletLinkActionRow = Selectable<WalletLinkActionsTable>;

/** A hosted cardholder onboarding session (docs/onboarding.md). */
export interface CardholderOnboardingSessionsTable {
  id: string;
  organization_id: string;
  livemode: number;
  /** SHA-256 of the link token: how the page finds its session. */
  token_digest: string;
  /** The link token sealed, so a retrieve answers the url while the session is open. */
  token_sealed: string;
  external_user_id: string;
  email: string | null;
  /** The platform's opaque value, echoed on completion. */
  state: string | null;
  return_url: string;
  status: 'open' | 'completed';
  cardholder_id: string | null;
  claimed_existing_cardholder: number;
  /** Sealed: the email a person said is theirs when claiming an existing cardholder. */
  claim_sealed: string | null;
  claim_code_digest: string | null;
  claim_failed_attempts: number;
  claim_expires_at: number | null;
  expires_at: number;
  completed_at: number | null;
  created_at: number;
}

export type CardholderOnboardingSessionRow = Selectable<CardholderOnboardingSessionsTable>;

/** A person who proved an email with a one-time code (docs/platform-connect.md). */
export interface MembersTable {
  id: string;
  /** Lowercased. */
  email: string;
  created_at: number;
}

export type MemberRole = 'owner' | 'developer' | 'viewer';

export interface MembershipsTable {
  organization_id: string;
  member_id: string;
  role: MemberRole;
  created_at: number;
}

/** A sign-in by email code: the code as a digest, at most five wrong tries, ten minutes. */
export interface MemberSignInsTable {
  id: string;
  email: string;
  code_digest: string;
  failed_attempts: number;
  status: 'pending' | 'used' | 'failed';
  expires_at: number;
  created_at: number;
}

export interface MemberSessionsTable {
  token_digest: string;
  member_id: string;
  expires_at: number;
  created_at: number;
}

export interface PlatformConnectSessionsTable {
  id: string;
  /** The platform's organization (the one that opened the session). */
  organization_id: string;
  livemode: number;
  token_digest: string;
  token_sealed: string;
  state: string | null;
  return_url: string;
  status: 'open' | 'completed';
  connected_organization_id: string | null;
  expires_at: number;
  completed_at: number | null;
  created_at: number;
}

export type PlatformConnectSessionRow = Selectable<PlatformConnectSessionsTable>;

export interface OrganizationConnectionsTable {
  platform_organization_id: string;
  livemode: number;
  connected_organization_id: string;
  session_id: string;
  created_at: number;
}

/** An authorization request at the messaging provider (`POST /api/v2/provider/oauth/start`), used once. */
export interface MessagingOAuthStatesTable {
  /** `mos_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  /** SHA-256 of the `state`; the state itself is only in the consent URL. */
  state_digest: string;
  /** The PKCE code verifier, sealed (bound to the row id). */
  code_verifier: string;
  expires_at: number;
  /** When the callback consumed it; a second callback with the same state is refused. */
  used_at: number | null;
  created_at: number;
}

/** An organization's connection to the messaging provider, per mode (docs/messaging.md). */
export interface MessagingConnectionsTable {
  /** `mc_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  /** `active`, or `broken` when the provider refused the refresh token (its tokens are then erased). */
  status: 'active' | 'broken';
  /** The provider's tokens, sealed (bound to the organization, mode and field); null once broken. */
  access_token: string | null;
  refresh_token: string | null;
  /** JSON arrays of strings. */
  scopes: string;
  provider_organization_ids: string;
  token_expires_at: number | null;
  /** A worker refreshing the tokens holds this until then, so that two never spend one refresh token. */
  refresh_lease_until: number | null;
  broken_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** A member's action in the console (docs/console.md). */
export interface AuditLogTable {
  id: string;
  organization_id: string;
  livemode: number;
  member_id: string;
  member_email: string;
  /** What was done, e.g. `webhook_endpoint.created`, `api_key.rotated`. */
  action: string;
  /** The object acted on (an endpoint, a client), when there is one. */
  object_id: string | null;
  created_at: number;
}

/** How a configured merchant links accounts (OAuth 2.0 + PKCE at the merchant; docs/merchant-accounts.md). */
export interface MerchantAccountLinkingTable {
  /** The `merchants` row: a merchant removed and added again does not inherit it. */
  merchant_id: string;
  authorize_url: string;
  token_url: string;
  userinfo_url: string;
  client_id: string;
  /** Purser's client secret at the merchant, sealed (bound to the merchant id). */
  client_secret_sealed: string;
  /** Space-separated scopes asked for. */
  scopes: string;
  created_at: number;
}

export interface MerchantLinkSessionsTable {
  /** `mls_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  /** The platform client that opened the session (`clientId` of `merchant.connected`). */
  client_id: string;
  merchant_id: string;
  merchant_slug: string;
  /** SHA-256 of the page token; the token itself sealed, to answer `url`. */
  token_digest: string;
  token_sealed: string;
  state: string | null;
  return_url: string;
  status: 'open' | 'completed';
  /** SHA-256 of the OAuth `state` of the latest authorization request; null once used. */
  oauth_state_digest: string | null;
  /** SHA-256 of the browser id (page cookie) that started it: the callback must come from it. */
  oauth_browser_digest: string | null;
  /** The PKCE code verifier, sealed (bound to the session id). */
  code_verifier_sealed: string | null;
  merchant_account_id: string | null;
  expires_at: number;
  completed_at: number | null;
  created_at: number;
}

export type MerchantLinkSessionRow = Selectable<MerchantLinkSessionsTable>;

export interface MerchantAccountsTable {
  /** `macct_…`. */
  id: string;
  organization_id: string;
  livemode: number;
  user_id: string;
  merchant_id: string;
  merchant_slug: string;
  /** The merchant's id of the account (its userinfo `sub`). */
  merchant_account_ref: string;
  /** The merchant's tokens, sealed (bound to the account id and field); never answered or logged. */
  access_token_sealed: string;
  refresh_token_sealed: string | null;
  token_expires_at: number | null;
  scopes: string;
  /** The link session that made (or last renewed) the link. */
  session_id: string;
  client_id: string;
  created_at: number;
  updated_at: number;
}

export type MerchantAccountRow = Selectable<MerchantAccountsTable>;
