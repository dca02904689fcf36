export { createPurser, type PurserClient, type PurserOptions } from './client.ts';
export * from './error-classes.ts';
export { type ErrorBody, type OAuthErrorBody, PurserError } from './errors.ts';
export { type ListItem, type ListParams, type ListPath, paginate } from './pagination.ts';
export type { components, operations, paths } from './schema.d.ts';
export type { RetryOptions } from './transport.ts';
export { purserError, unwrap } from './unwrap.ts';
export {
  constructEvent,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  verifySignature,
  type WebhookEvent,
  WebhookVerificationError,
} from './webhooks.ts';
