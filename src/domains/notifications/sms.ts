import { guardedRequest, type OutboundGuard } from '../../core/http/client.ts';

export interface SmsMessage {
  to: string;
  body: string;
}

/** Sends SMS. Throws when the provider did not accept the message. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/** An SMS API that has not answered within this has failed. */
const SMS_TIMEOUT_MS = 10_000;

/**
 * A Twilio-style HTTP API: `POST {apiUrl}/2010-04-01/Accounts/{sid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, HTTP Basic with the account sid and auth token. Any 2xx is accepted. Reached
 * through the guarded client under the operator's outbound policy (core/http/policy.ts).
 */
export class HttpSmsSender implements SmsSender {
  constructor(
    private readonly options: { apiUrl: string; accountSid: string; authToken: string; from: string },
    private readonly guard: OutboundGuard,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const { apiUrl, accountSid, authToken, from } = this.options;
    const answer = await guardedRequest(
      new URL(`${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`),
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: message.to, From: from, Body: message.body }).toString(),
      },
      { ...this.guard, timeoutMs: SMS_TIMEOUT_MS },
    );
    if (answer.kind === 'failure') throw new Error(`SMS provider not reached: ${answer.error}`);
    if (answer.status < 200 || answer.status > 299) throw new Error(`SMS provider answered ${answer.status}`);
  }
}
