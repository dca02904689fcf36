export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  verifySignature,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.ts';
