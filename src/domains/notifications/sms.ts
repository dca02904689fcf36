export interface SmsMessage {
  to: string;
  body: string;
}

/** Sends SMS. Throws when the provider did not accept the message. */
export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

/**
 * A Twilio-style HTTP API: `POST {apiUrl}/2010-04-01/Accounts/{sid}/Messages.json`, form-encoded
 * `To`, `From`, `Body`, HTTP Basic with the account sid and auth token. Any 2xx is accepted.
 */
export class HttpSmsSender implements SmsSender {
  constructor(
    private readonly options: { apiUrl: string; accountSid: string; authToken: string; from: string },
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const { apiUrl, accountSid, authToken, from } = this.options;
    const response = await fetch(
      `${apiUrl}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ To: message.to, From: from, Body: message.body }),
        signal: AbortSignal.timeout(10_000),
      },
    );
    await response.body?.cancel();
    if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
  }
}
