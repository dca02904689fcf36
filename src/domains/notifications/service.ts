import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Db } from '../../db/index.ts';
import type { OutboxMessage } from '../../db/schema.ts';
import type { EmailMessage, Mailer } from './mailer.ts';
import type { SmsMessage, SmsSender } from './sms.ts';
import * as store from './store.ts';

export interface Sender {
  organizationId: string | null;
  livemode: boolean;
}

/**
 * Email and SMS to people. A real transport is used when one is configured, and in sandbox only
 * when `SANDBOX_REAL_DELIVERY` allows it; otherwise the message lands in the local outbox
 * (`npx purser outbox`), which is how development and sandbox read their codes.
 */
export class NotificationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly transports: {
      mailer: Mailer | null;
      sms: SmsSender | null;
      sandboxRealDelivery: boolean;
    },
  ) {}

  async sendEmail(sender: Sender, message: EmailMessage): Promise<void> {
    const mailer = this.transports.mailer;
    if (mailer && this.realDelivery(sender)) return mailer.send(message);
    await this.toOutbox(sender, 'email', message.to, message.subject, message.text);
  }

  async sendSms(sender: Sender, message: SmsMessage): Promise<void> {
    const sms = this.transports.sms;
    if (sms && this.realDelivery(sender)) return sms.send(message);
    await this.toOutbox(sender, 'sms', message.to, null, message.body);
  }

  async outbox(limit = 20): Promise<OutboxMessage[]> {
    return store.listOutboxMessages(this.db, limit);
  }

  async close(): Promise<void> {
    await this.transports.mailer?.close();
  }

  private realDelivery(sender: Sender): boolean {
    return sender.livemode || this.transports.sandboxRealDelivery;
  }

  private async toOutbox(
    sender: Sender,
    channel: 'email' | 'sms',
    recipient: string,
    subject: string | null,
    body: string,
  ): Promise<void> {
    await store.insertOutboxMessage(this.db, {
      id: newId('msg'),
      organization_id: sender.organizationId,
      livemode: sender.livemode ? 1 : 0,
      channel,
      recipient,
      subject,
      body,
      created_at: this.clock.now(),
    });
  }
}
