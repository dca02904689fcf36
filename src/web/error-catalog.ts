/** Every error code the API answers with, and when. Rendered at /docs/errors; `docs` links point here. */
export const ERROR_CATALOG: { code: string; status: number; when: string }[] = [
  {
    code: 'invalid_request',
    status: 400,
    when: 'A field is missing, malformed or too long; `field_errors` names each one.',
  },
  {
    code: 'unsupported_grant_type',
    status: 400,
    when: 'Token endpoint: grant_type is not client_credentials.',
  },
  {
    code: 'unauthorized_client',
    status: 400,
    when: 'Token endpoint: this client cannot use the grant (public clients).',
  },
  { code: 'invalid_client', status: 401, when: 'Token endpoint: unknown client or bad credentials.' },
  { code: 'access_denied', status: 403, when: 'The organization is suspended.' },
  {
    code: 'origin_not_allowed',
    status: 403,
    when: 'MCP tool server: the browser Origin is not accepted (docs/mcp-tools.md, Origin).',
  },
  {
    code: 'rate_limited',
    status: 429,
    when: 'Too many requests; wait for the number of seconds in Retry-After.',
  },
  { code: 'unauthorized', status: 401, when: 'Missing, unknown or expired bearer token on a platform call.' },
  {
    code: 'client_credentials_required',
    status: 400,
    when: 'A connection (user) token was used where a platform token is needed.',
  },
  {
    code: 'invalid_phone',
    status: 400,
    when: 'Connect start: the phone number is not a valid E.164 number.',
  },
  {
    code: 'invalid_connect_attempt',
    status: 400,
    when: 'Connect verify: the attempt is unknown, already used, or locked after too many wrong codes.',
  },
  { code: 'invalid_code', status: 401, when: 'Connect verify: the code is wrong or has expired.' },
  {
    code: 'invalid_refresh_token',
    status: 401,
    when: 'Connect refresh: the refresh token is unknown, expired, rotated out or revoked.',
  },
  {
    code: 'connection_not_found',
    status: 404,
    when: 'No connection for that user under the calling client.',
  },
  {
    code: 'invalid_grant',
    status: 400,
    when: 'User-facing OAuth token endpoint: the code or refresh token is invalid, expired, already used (a replayed code or a reused refresh token also revokes its tokens), another client’s, or PKCE failed.',
  },
  {
    code: 'invalid_target',
    status: 400,
    when: 'User-facing OAuth: `resource` is not the tool server `{mcp_url}/mcp` (a trailing slash is tolerated).',
  },
  {
    code: 'invalid_scope',
    status: 400,
    when: 'User-facing OAuth authorize: `scope` names a scope the server does not have (see scopes_supported).',
  },
  {
    code: 'unsupported_response_type',
    status: 400,
    when: 'User-facing OAuth authorize (error redirect): `response_type` is not `code`.',
  },
  {
    code: 'invalid_client_metadata',
    status: 400,
    when: 'Client registration (RFC 7591): a metadata field is malformed or asks for what the server does not support.',
  },
  {
    code: 'invalid_redirect_uri',
    status: 400,
    when: 'Client registration: a redirect URI is not https, loopback http or a private-use scheme, or has a fragment.',
  },
  { code: 'auth_provider_error', status: 502, when: 'The code could not be sent; try again.' },
  {
    code: 'auth_unavailable',
    status: 503,
    when: 'Authentication is temporarily unavailable; retry shortly.',
  },
  {
    code: 'service_unavailable',
    status: 503,
    when: 'The database cannot be reached (down, restarting or unreachable); retry after Retry-After, a write with the same Idempotency-Key. The token endpoints answer it in their OAuth body.',
  },
  {
    code: 'database_busy',
    status: 503,
    when: 'PostgreSQL kept aborting the operation for conflicting concurrent ones (a deadlock or serialization failure) after several tries, or on SQLite another process held the database past SQLITE_BUSY_TIMEOUT_MS; nothing changed. Retry after Retry-After seconds with the same Idempotency-Key.',
  },
  {
    code: 'issuer_unavailable',
    status: 503,
    when: "`purser issuer reconcile` (CARD_ISSUER=lithic): the issuer's transactions could not be listed; nothing was compared. Retry when Lithic answers.",
  },
  {
    code: 'chain_unavailable',
    status: 503,
    when: '`purser chain reconcile` (CHAIN=evm): the chain could not be read; nothing was compared. Retry when the node answers.',
  },
  {
    code: 'invalid_origin',
    status: 400,
    when: 'Embed origins: an entry is not an https origin (http only for loopback hosts); the message names it.',
  },
  {
    code: 'idempotency_key_reused',
    status: 422,
    when: 'The Idempotency-Key was first used, by this credential on this method and path, with another body; use a new key.',
  },
  {
    code: 'idempotency_key_in_use',
    status: 409,
    when: 'A request with this Idempotency-Key is still running; retry shortly (Retry-After).',
  },
  { code: 'not_found', status: 404, when: 'No such route or resource.' },
  {
    code: 'method_not_allowed',
    status: 405,
    when: 'The path exists but not with this method; see the Allow header.',
  },
  {
    code: 'unsupported_media_type',
    status: 415,
    when: 'The body is not application/json (or form-encoded on the token endpoint).',
  },
  { code: 'payload_too_large', status: 413, when: 'The body is larger than the limit.' },
  {
    code: 'endpoint_disabled',
    status: 409,
    when: 'Webhook endpoints: the endpoint is disabled (test, resend, recover); PATCH it with status active first.',
  },
  {
    code: 'document_unreadable',
    status: 422,
    when: 'KYC upload: the photo could not be read as the document (blurry, cut off, no barcode or machine-readable lines); the message says what to retake.',
  },
  { code: 'document_expired', status: 422, when: 'KYC upload: the document has expired.' },
  {
    code: 'specimen_document',
    status: 422,
    when: 'KYC upload with a live credential: the document is a sandbox sample (a specimen), not an identity document.',
  },
  {
    code: 'user_conflict',
    status: 409,
    when: 'KYC upload: this document is already verified for another user of the organization.',
  },
  {
    code: 'invalid_kyc_state',
    status: 409,
    when: 'KYC: the verification is not in a status that takes this call (e.g. a back before the front, documents once pending); read the state and follow it.',
  },
  {
    code: 'verification_error',
    status: 502,
    when: 'KYC: the document check or the review could not be reached; try again.',
  },
  {
    code: 'merchant_linking_unsupported',
    status: 422,
    when: 'Merchant links: the merchant declares no account linking (its operator set no `--link-…` settings; the built-in sandbox merchants link none).',
  },
  {
    code: 'sandbox_only',
    status: 403,
    when: 'Simulations (KYC outcomes, wallet funding, the sandbox card network) need a test-mode credential.',
  },
  {
    code: 'invalid_reason',
    status: 400,
    when: 'KYC simulate and review: the reason names an internal provider, identifier, address or link.',
  },
  {
    code: 'face_scan_failed',
    status: 422,
    when: 'Hosted verification page: the face scan frames were missing, blank or not from a live camera.',
  },
  {
    code: 'image_too_large',
    status: 422,
    when: 'KYC upload or face scan: the image is larger (in bytes, or in pixels as its header declares) than the service decodes; send a smaller photo.',
  },
  {
    code: 'session_expired',
    status: 401,
    when: 'Hosted verification page: the page was opened too long ago or from an older link; reopen the newest iframe_url.',
  },
  { code: 'internal_error', status: 500, when: 'Something went wrong on our side; retry later.' },
  {
    code: 'insufficient_funds',
    status: 402,
    when: "Cards: the user's wallet (or, when clearing for more than authorized, the card) does not cover the amount.",
  },
  { code: 'kyc_required', status: 422, when: "Cards: the user's identity verification is not approved." },
  {
    code: 'issuer_error',
    status: 502,
    when: 'Cards: the card issuer (Lithic) refused or could not be reached; nothing changed. Retry later.',
  },
  {
    code: 'invalid_signature',
    status: 401,
    when: 'Issuer webhooks (Standard Webhooks) and ACP merchant order webhooks (Merchant-Signature): the signature is missing, wrong, or more than 5 minutes old.',
  },
  {
    code: 'card_closed',
    status: 409,
    when: 'Cards: the card is closed and can no longer be paused, resumed or changed.',
  },
  {
    code: 'card_not_multi_use',
    status: 409,
    when: 'Cards: only a multi-use card has a spend limit to change.',
  },
  {
    code: 'company_funded_card',
    status: 409,
    when: "Cards: a company-funded card's spend limit cannot be raised, and a user's own token (MCP) cannot change it at all; the platform may lower it.",
  },
  {
    code: 'spend_limit_below_spent',
    status: 409,
    when: 'Cards: the card has already spent or holds more than the lower spend limit would leave it.',
  },
  {
    code: 'card_details_unavailable',
    status: 403,
    when: 'Cards: revealing production card numbers is not enabled for the organization (an operator setting).',
  },
  {
    code: 'order_not_placed',
    status: 409,
    when: 'ACP order webhook: the order is still being placed; the merchant sends the event again shortly.',
  },
  {
    code: 'transaction_not_pending',
    status: 409,
    when: 'Sandbox network: only a PENDING authorization can be cleared or voided.',
  },
  {
    code: 'transaction_not_settled',
    status: 409,
    when: 'Refunds: the transaction has settled nothing yet (pending, voided or declined); only settled money is refunded.',
  },
  {
    code: 'transaction_refunded',
    status: 409,
    when: 'Refunds: the transaction was refunded in full already; nothing is left to give back.',
  },
  {
    code: 'transaction_not_refundable',
    status: 409,
    when: 'Refunds: the transaction is itself a refund.',
  },
  {
    code: 'transfer_not_awaiting_ack',
    status: 409,
    when: 'Wallet transfers (v1): the company-funded transfer was approved automatically, already acknowledged otherwise, or ended.',
  },
  {
    code: 'ack_deadline_passed',
    status: 409,
    when: 'Wallet transfers (v1): the acknowledgement came after `ack_deadline`; the transfer failed with `ack_timeout`.',
  },
  {
    code: 'user_token_required',
    status: 401,
    when: 'Purchases: `/buy` acts for one user; send their connection token or a cardholder buy token, not a platform token.',
  },
  {
    code: 'contact_missing',
    status: 422,
    when: 'Vault link, or a wallet link asked to be sent: the user has no phone number or email on file to send the link to.',
  },
  {
    code: 'messaging_not_configured',
    status: 404,
    when: 'Messaging provider routes: the operator has not set MESSAGING_PROVIDER_URL, MESSAGING_CLIENT_ID and MESSAGING_CLIENT_SECRET.',
  },
  {
    code: 'messaging_provider_error',
    status: 502,
    when: 'Messaging provider: it failed the code exchange (callback) or could not be reached to revoke (DELETE connection); nothing changed.',
  },
  {
    code: 'invalid_state',
    status: 400,
    when: 'Messaging provider callback: the `state` is unknown, already used or expired; nothing was connected.',
  },
  {
    code: 'messaging_access_denied',
    status: 403,
    when: 'Messaging provider callback (JSON): access was declined at the provider; nothing was connected.',
  },
  {
    code: 'subscription_required',
    status: 402,
    when: 'Wallet link creation in production: the organization has no active subscription.',
  },
  {
    code: 'wallet_link_unavailable',
    status: 403,
    when: "Wallet link creation: the user's identity verification was rejected (docs/wallet-links.md).",
  },
  {
    code: 'user_info_required',
    status: 422,
    when: 'Wallet link creation: something must be recorded first; `missing_fields` lists it (`consent` when no consent is recorded).',
  },
  {
    code: 'passkey_required',
    status: 403,
    when: 'Hosted vault and approval pages: a passkey must be registered (or used to unlock the vault) first; passkey reset page: the code must be entered on this device first (docs/vault.md).',
  },
  {
    code: 'passkey_invalid',
    status: 400,
    when: 'Hosted vault and approval pages: the passkey answer was not accepted (unknown credential, wrong, used or expired challenge, or a signature counter that did not rise).',
  },
  {
    code: 'csrf_invalid',
    status: 403,
    when: 'Hosted vault and approval pages: the post did not carry the token the page rendered; reload the page.',
  },
  {
    code: 'approval_closed',
    status: 409,
    when: 'Approval page: the payment approval was already declined or has expired (docs/purchases.md, Approvals).',
  },
  {
    code: 'link_expired',
    status: 410,
    when: 'Hosted vault and passkey reset pages: the link has expired; ask the app for a new one.',
  },
  {
    code: 'link_used',
    status: 409,
    when: 'Passkey reset page: the reset is complete, was replaced by a newer one, or locked after wrong codes; ask the app for a new link if needed (docs/vault.md).',
  },
  {
    code: 'document_mismatch',
    status: 422,
    when: 'KYC documents: the back does not belong to the document whose front was uploaded (`field_errors` names what differs).',
  },
  {
    code: 'invalid_event_type',
    status: 400,
    when: 'An event type that does not exist (webhook endpoints, event filters, `purser trigger`); the message names the closest one.',
  },
  {
    code: 'already_completed',
    status: 409,
    when: 'Platform connect: the session was already completed.',
  },
  {
    code: 'order_moved',
    status: 409,
    when: 'Purchases: another process concluded the order first; read it again.',
  },
  {
    code: 'invalid_mandate_state',
    status: 409,
    when: 'Mandates: the mandate has expired, so it cannot be revoked; or, on its approval page, it is approved, declined or withdrawn already (docs/mandates.md, States).',
  },
  {
    code: 'terms_changed',
    status: 409,
    when: 'Mandate approval page: the terms changed since the page was opened; nothing was approved (docs/mandates.md, The approval).',
  },
  { code: 'uri_too_long', status: 414, when: 'A path segment is longer than 100 characters (no id is).' },
  { code: 'request_timeout', status: 408, when: 'The request was not received in time.' },
  {
    code: 'request_header_fields_too_large',
    status: 431,
    when: 'The request headers are too large.',
  },
];
