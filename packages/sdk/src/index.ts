export { createPurser, type PurserClient, type PurserOptions } from './client.ts';
export { type ErrorBody, type OAuthErrorBody, PurserError, unwrap } from './errors.ts';
export type { components, operations, paths } from './schema.d.ts';
export type { RetryOptions } from './transport.ts';
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  verifySignature,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.ts';
