import type { Migration } from 'kysely';
import * as foundation from './0001_foundation.ts';
import * as events from './0002_events.ts';
import * as kyc from './0003_kyc.ts';
import * as instanceSecrets from './0004_instance_secrets.ts';
import * as kycReviewSubmission from './0005_kyc_review_submission.ts';
import * as embedOrigins from './0006_embed_origins.ts';
import * as idempotencyKeys from './0007_idempotency_keys.ts';
import * as kycKeyedDigests from './0008_kyc_keyed_digests.ts';
import * as abuseLimits from './0009_abuse_limits.ts';
import * as idempotencyScope from './0012_idempotency_scope.ts';
import * as ledger from './0013_ledger.ts';
import * as cards from './0014_cards.ts';
import * as oauth from './0015_oauth.ts';
import * as funding from './0016_funding.ts';
import * as chain from './0017_chain.ts';
import * as purchases from './0018_purchases.ts';
import * as merchants from './0019_merchants.ts';
import * as walletLinks from './0020_wallet_links.ts';
import * as vault from './0021_vault.ts';
import * as vaultPasskeys from './0022_vault_passkeys.ts';
import * as cardholderOnboarding from './0025_cardholder_onboarding.ts';
import * as messaging from './0026_messaging.ts';
import * as platformConnect from './0027_platform_connect.ts';
import * as consoleAudit from './0028_console.ts';
import * as merchantAccounts from './0029_merchant_accounts.ts';
import * as ledgerWriteIndexes from './0030_ledger_write_indexes.ts';
import * as orderFulfillment from './0031_order_fulfillment.ts';
import * as cardRefunds from './0032_card_refunds.ts';
import * as chainReturns from './0033_chain_returns.ts';
import * as partialVoids from './0034_partial_voids.ts';
import * as ledgerMirrorDeltas from './0035_ledger_mirror_deltas.ts';
import * as issuerReconcile from './0036_issuer_reconcile.ts';
import * as webhookSignatureScheme from './0040_webhook_signature_scheme.ts';
import * as apiRequestLog from './0041_api_request_log.ts';
import * as webhookAttemptLeases from './0042_webhook_attempt_leases.ts';
import * as cardControls from './0043_card_controls.ts';
import * as passkeyResets from './0044_passkey_resets.ts';
import * as receipts from './0046_receipts.ts';
import * as mandates from './0047_mandates.ts';
import * as cardFlowControls from './0048_card_flow_controls.ts';
import * as chainKeyRotation from './0049_chain_key_rotation.ts';
import * as mandatePurchases from './0050_mandate_purchases.ts';
import * as webhookDuePartial from './0051_webhook_due_partial.ts';
import * as poolAppendedCredits from './0052_pool_appended_credits.ts';
import * as apiRequestsCovering from './0053_api_requests_covering.ts';
import * as sentMessages from './0054_sent_messages.ts';
import * as apiRequestsByOwner from './0055_api_requests_by_owner.ts';
import * as cardRefundsPartial from './0056_card_refunds_partial.ts';
import * as listingIndexes from './0057_listing_indexes.ts';
import * as deliveryVacuum from './0058_delivery_vacuum.ts';
import * as cardsByClient from './0059_cards_by_client.ts';

/** Every migration, in order. One set serves SQLite and PostgreSQL. Append; never edit a released one. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_events': events,
  '0003_kyc': kyc,
  '0004_instance_secrets': instanceSecrets,
  '0005_kyc_review_submission': kycReviewSubmission,
  '0006_embed_origins': embedOrigins,
  '0007_idempotency_keys': idempotencyKeys,
  '0008_kyc_keyed_digests': kycKeyedDigests,
  '0009_abuse_limits': abuseLimits,
  '0012_idempotency_scope': idempotencyScope,
  '0013_ledger': ledger,
  '0014_cards': cards,
  '0015_oauth': oauth,
  '0016_funding': funding,
  '0017_chain': chain,
  '0018_purchases': purchases,
  '0019_merchants': merchants,
  '0020_wallet_links': walletLinks,
  '0021_vault': vault,
  '0022_vault_passkeys': vaultPasskeys,
  '0025_cardholder_onboarding': cardholderOnboarding,
  '0026_messaging': messaging,
  '0027_platform_connect': platformConnect,
  '0028_console': consoleAudit,
  '0029_merchant_accounts': merchantAccounts,
  '0030_ledger_write_indexes': ledgerWriteIndexes,
  '0031_order_fulfillment': orderFulfillment,
  '0032_card_refunds': cardRefunds,
  '0033_chain_returns': chainReturns,
  '0034_partial_voids': partialVoids,
  '0035_ledger_mirror_deltas': ledgerMirrorDeltas,
  '0036_issuer_reconcile': issuerReconcile,
  '0040_webhook_signature_scheme': webhookSignatureScheme,
  '0041_api_request_log': apiRequestLog,
  '0042_webhook_attempt_leases': webhookAttemptLeases,
  '0043_card_controls': cardControls,
  '0044_passkey_resets': passkeyResets,
  '0046_receipts': receipts,
  '0047_mandates': mandates,
  '0048_card_flow_controls': cardFlowControls,
  '0049_chain_key_rotation': chainKeyRotation,
  '0050_mandate_purchases': mandatePurchases,
  '0051_webhook_due_partial': webhookDuePartial,
  '0052_pool_appended_credits': poolAppendedCredits,
  '0053_api_requests_covering': apiRequestsCovering,
  '0054_sent_messages': sentMessages,
  '0055_api_requests_by_owner': apiRequestsByOwner,
  '0056_card_refunds_partial': cardRefundsPartial,
  '0057_listing_indexes': listingIndexes,
  '0058_delivery_vacuum': deliveryVacuum,
  '0059_cards_by_client': cardsByClient,
};
