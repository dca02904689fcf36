import { Type } from 'typebox';
import { LiteralUnion } from '../../core/schemas.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { MessagingLog, ProviderSendOutcome } from '../messaging/index.ts';
import type { NotificationService } from './service.ts';

/** Where a link goes: the phone on the user's account, else the email. */
export type LinkContact = { channel: 'sms' | 'email'; to: string };

/**
 * What took a link: the organization's messaging `provider`, the SMS service, the mail server, or
 * only the local `outbox` (no service configured for this mode: nobody received it).
 */
export type LinkChannel = 'provider' | 'sms' | 'email' | 'outbox';

/** What happened to a link the service tried to send: what took it, or `failed` (no channel did). */
export type LinkDeliveryOutcome = LinkChannel | 'failed';

/** Every `delivery` value an API object may carry (null: nothing was tried, the platform delivers). */
export const LINK_DELIVERIES = [
  'provider',
  'sms',
  'email',
  'outbox',
  'failed',
] as const satisfies readonly LinkDeliveryOutcome[];

/** The `delivery` field of a link object (vault and wallet links); `nothingTried` says when it is null. */
export function linkDeliveryField(nothingTried: string) {
  return Type.Union([LiteralUnion(LINK_DELIVERIES), Type.Null()], {
    description:
      "What happened to the link: `provider` (the organization's messaging provider sent it), `sms` or `email` " +
      '(the configured SMS service or mail server took it), `outbox` (no service is configured for this mode: ' +
      'it only reached the local outbox, as in sandbox by default), `failed` (every channel failed); null when ' +
      `nothing was tried (${nothingTried})`,
  });
}

/** Did something outside Purser take the link (a provider, an SMS service, a mail server)? */
export function reachedUser(outcome: LinkDeliveryOutcome | null): boolean {
  return outcome === 'provider' || outcome === 'sms' || outcome === 'email';
}

/** The contact a link goes to: the phone on the user's account, else the email; null with neither. */
export function contactOf(user: { phone: string | null; email: string | null }): LinkContact | null {
  if (user.phone) return { channel: 'sms', to: user.phone };
  if (user.email) return { channel: 'email', to: user.email };
  return null;
}

/** The organization's own messaging provider (MessagingService). */
export interface OrganizationSender {
  sendText(owner: Tenant, message: { to: string; text: string }): Promise<ProviderSendOutcome>;
}

const line = (level: string) => (fields: object, message: string) =>
  process.stderr.write(`${JSON.stringify({ level, msg: message, ...fields })}\n`);

/**
 * The one place that chooses how a link reaches a user (wallet, vault and approval links;
 * docs/messaging.md). A phone gets the link from the organization's own numbers through its
 * messaging provider when it is connected with `messages:send`; otherwise, and whenever the provider
 * fails, through the default notifications channel (SMS, or the outbox). An email goes through the
 * notifications channel. The log says why the default channel was used, never what the link is.
 */
export class LinkDelivery {
  private log: MessagingLog = { info: line('info'), warn: line('warn'), error: line('error') };

  constructor(
    private readonly notifications: NotificationService,
    private readonly organizationSender: OrganizationSender,
  ) {}

  useLog(log: MessagingLog): void {
    this.log = log;
  }

  /**
   * `send`, with a failure of every channel answered `failed` rather than thrown: the caller still
   * has the link and hands it to the platform.
   */
  async deliver(
    owner: Tenant,
    contact: LinkContact,
    message: { subject: string; text: string },
  ): Promise<LinkDeliveryOutcome> {
    try {
      return await this.send(owner, contact, message);
    } catch {
      return 'failed';
    }
  }

  /**
   * Sends `text` (with `subject` for an email) and answers what took it (`outbox`: only the local
   * outbox, nobody received it). Throws when no channel did: the caller still has the link and hands
   * it to the platform instead.
   */
  async send(
    owner: Tenant,
    contact: LinkContact,
    message: { subject: string; text: string },
  ): Promise<LinkChannel> {
    if (contact.channel === 'email') {
      return this.notifications.sendEmail(owner, {
        to: contact.to,
        subject: message.subject,
        text: message.text,
      });
    }
    const fields = { organization_id: owner.organizationId, livemode: owner.livemode, fallback: 'sms' };
    let sent: ProviderSendOutcome;
    try {
      sent = await this.organizationSender.sendText(owner, { to: contact.to, text: message.text });
    } catch (error) {
      sent = { outcome: 'failed', error: error instanceof Error ? error.message : String(error) };
    }
    if (sent.outcome === 'sent') return 'provider';
    if (sent.outcome === 'scope_missing')
      this.log.info(
        fields,
        'messaging provider lacks the messages:send scope; link sent through the default channel',
      );
    else if (sent.outcome === 'failed')
      // The provider may have sent it all the same (a timeout): a duplicate beats a lost link.
      this.log.warn(
        { ...fields, error: sent.error },
        'messaging provider send failed; link sent through the default channel',
      );
    return this.notifications.sendSms(owner, { to: contact.to, body: message.text });
  }
}
