import type { Clock } from '../../core/clock.ts';
import { newId } from '../../core/ids.ts';
import type { Sealer } from '../../core/sealer.ts';
import { livemodeColumn } from '../../core/tenant.ts';
import type { Db } from '../../db/index.ts';
import type { SentMessage } from '../../db/schema.ts';
import type { SealedColumn } from '../../db/sealed-values.ts';
import type { EmailMessage, Mailer } from './mailer.ts';
import type { SmsMessage, SmsSender } from './sms.ts';
import * as store from './store.ts';

export interface Sender {
  organizationId: string | null;
  livemode: boolean;
}

/**
 * Email and SMS to people. A real transport is used when one is configured, and in sandbox only
 * when `SANDBOX_REAL_DELIVERY` allows it; otherwise the message lands only in the local message
 * log, `sent_messages` (read with `npx purser outbox`; the answer's word for that channel is still
 * `outbox`, as the API reports it), which is how development and sandbox read their codes. A message
 * can carry a live one-time code, so its subject and body are sealed at rest (AES-256-GCM, bound to
 * the message id) and opened only when the log is read.
 */
export class NotificationService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly sealer: Sealer,
    private readonly transports: {
      mailer: Mailer | null;
      sms: SmsSender | null;
      sandboxRealDelivery: boolean;
    },
  ) {}

  /** Sends an email; answers where it went: `email` (the mail server took it) or `outbox`. */
  async sendEmail(sender: Sender, message: EmailMessage): Promise<'email' | 'outbox'> {
    const mailer = this.transports.mailer;
    if (mailer && this.realDelivery(sender)) {
      await mailer.send(message);
      return 'email';
    }
    await this.logMessage(sender, 'email', message.to, message.subject, message.text);
    return 'outbox';
  }

  /** Sends an SMS; answers where it went: `sms` (the SMS service took it) or `outbox`. */
  async sendSms(sender: Sender, message: SmsMessage): Promise<'sms' | 'outbox'> {
    const sms = this.transports.sms;
    if (sms && this.realDelivery(sender)) {
      await sms.send(message);
      return 'sms';
    }
    await this.logMessage(sender, 'sms', message.to, null, message.body);
    return 'outbox';
  }

  async sentMessages(limit = 20): Promise<SentMessage[]> {
    const rows = await store.listSentMessages(this.db, limit);
    return rows.map((row) => ({
      ...row,
      subject: row.subject === null ? null : this.sealer.open(row.subject, messageAad('subject', row.id)),
      body: this.sealer.open(row.body, messageAad('body', row.id)),
    }));
  }

  async close(): Promise<void> {
    await this.transports.mailer?.close();
  }

  private realDelivery(sender: Sender): boolean {
    return sender.livemode || this.transports.sandboxRealDelivery;
  }

  private async logMessage(
    sender: Sender,
    channel: 'email' | 'sms',
    recipient: string,
    subject: string | null,
    body: string,
  ): Promise<void> {
    const id = newId('msg');
    await store.insertSentMessage(this.db, {
      id,
      organization_id: sender.organizationId,
      livemode: livemodeColumn(sender.livemode),
      channel,
      recipient,
      subject: subject === null ? null : this.sealer.seal(subject, messageAad('subject', id)),
      body: this.sealer.seal(body, messageAad('body', id)),
      created_at: this.clock.now(),
    });
  }
}

/**
 * Messages are sealed bound to their row and field: copied onto another, they do not open. The
 * `outbox.` prefix predates the table's rename to `sent_messages` and stays: stored rows carry it.
 */
const messageAad = (field: 'subject' | 'body', id: string) => `outbox.${field}|${id}`;

/** The sealed messages (re-sealed by `purser encryption-key reseal`). */
export const SEALED_COLUMNS: SealedColumn[] = (['subject', 'body'] as const).map((field) => ({
  table: 'sent_messages',
  column: field,
  key: ['id'],
  aad: (row) => messageAad(field, String(row.id)),
}));
