/** The front door of `notifications` (docs/architecture.md, "Walls"): what other domains may use. */
export type { LinkDelivery, LinkDeliveryOutcome } from './link-delivery.ts';
export { contactOf, linkDeliveryField, reachedUser } from './link-delivery.ts';
export type { EmailMessage } from './mailer.ts';
export type { NotificationService } from './service.ts';
