import { randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { SECOND } from '../../src/core/clock.ts';
import { randomToken } from '../../src/core/ids.ts';
import { useWebhookApp } from './helpers.ts';
import { expectedSignatures } from './receiver.ts';

/**
 * Per-endpoint signature schemes (issue 29): `purser` (the spec's Service-Signature, the default) or
 * `standard_webhooks`, whose deliveries the Standard Webhooks reference library (the `standardwebhooks`
 * package, as a receiver would use it) must verify.
 */
const f = useWebhookApp({
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  WEBHOOK_RETRY_JITTER_PERCENT: '0',
  WEBHOOK_RETRY_SCHEDULE: '1',
  WEBHOOK_TIMEOUT_MS: '1000',
});
afterEach(() => {
  f.receiver.answer = () => ({ status: 200, body: 'ok' });
});

const key = () => f.org.sandbox.api_key;

async function createEndpoint(body: Record<string, unknown>) {
  const res = await f.t.call('POST', '/api/v1/webhook_endpoints', {
    token: key(),
    body: { url: f.receiver.url, enabled_events: ['card.created'], ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; secret: string; signature_scheme: string };
}

async function emit() {
  return f.t.ctx.db.transaction().execute((trx) =>
    f.t.ctx.events.emit(trx, {
      organizationId: f.org.organization_id,
      livemode: false,
      type: 'card.created',
      data: { id: 'card_1', last4: '4242' },
    }),
  );
}

/** The deliveries the receiver got since `from`, as the library takes them: body and headers. */
const since = (from: number) =>
  f.receiver.received.slice(from).map((r) => ({
    body: r.body,
    headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)])),
  }));

const patch = (id: string, body: Record<string, unknown>) =>
  f.t.call('PATCH', `/api/v1/webhook_endpoints/${id}`, { token: key(), body });

describe('Standard Webhooks signatures', () => {
  it('signs an endpoint that asks for them with webhook-id, -timestamp and -signature, verified by the library', async () => {
    // The library checks the timestamp against the real clock: the app's clock is the real time here.
    f.t.clock.set(Date.now());
    const endpoint = await createEndpoint({ signature_scheme: 'standard_webhooks' });
    expect(endpoint.signature_scheme).toBe('standard_webhooks');
    // whsec_ and base64 of 32 bytes, the form the library reads.
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const from = f.receiver.received.length;
    f.receiver.answer = () => ({ status: 503 });
    const { id } = await emit();
    await f.worker.runOnce();
    f.receiver.answer = () => ({ status: 200, body: 'ok' });
    f.t.clock.advance(SECOND);
    await f.worker.runOnce();
    const [first, retry] = since(from);

    for (const delivery of [first!, retry!]) {
      expect(delivery.headers['webhook-id']).toBe(id);
      expect(delivery.headers['webhook-timestamp']).toMatch(/^\d+$/);
      expect(delivery.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The spec's headers belong to the other scheme.
      expect(delivery.headers).not.toHaveProperty('service-signature');
      expect(delivery.headers).not.toHaveProperty('x-service-signature');
      const event = new Webhook(endpoint.secret).verify(delivery.body, delivery.headers);
      expect(event).toMatchObject({ id, type: 'card.created', data: { id: 'card_1', last4: '4242' } });
    }
    // A retry is the same message (same id), signed anew at its own time.
    expect(retry!.headers['webhook-timestamp']).not.toBe(first!.headers['webhook-timestamp']);

    // A wrong secret, an altered body or another id does not verify.
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => new Webhook(other).verify(first!.body, first!.headers)).toThrow(WebhookVerificationError);
    expect(() =>
      new Webhook(endpoint.secret).verify(first!.body.replace('4242', '4243'), first!.headers),
    ).toThrow(WebhookVerificationError);
    expect(() =>
      new Webhook(endpoint.secret).verify(first!.body, { ...first!.headers, 'webhook-id': 'evt_other' }),
    ).toThrow(WebhookVerificationError);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('keeps the spec scheme by default, and switches an endpoint with PATCH', async () => {
    f.t.clock.set(Date.now());
    const endpoint = await createEndpoint({});
    expect(endpoint.signature_scheme).toBe('purser');
    let from = f.receiver.received.length;
    await emit();
    await f.worker.runOnce();
    const [spec] = since(from);
    const t = Number(/^t=(\d+),/.exec(spec!.headers['service-signature']!)![1]);
    expect(spec!.headers['service-signature']).toBe(
      expectedSignatures(endpoint.secret, spec!.body, t).current,
    );
    expect(spec!.headers).not.toHaveProperty('webhook-signature');

    const switched = await patch(endpoint.id, { signature_scheme: 'standard_webhooks' });
    expect(switched.statusCode, switched.body).toBe(200);
    expect(switched.json().signature_scheme).toBe('standard_webhooks');
    from = f.receiver.received.length;
    await emit();
    await f.worker.runOnce();
    const [standard] = since(from);
    expect(new Webhook(endpoint.secret).verify(standard!.body, standard!.headers)).toMatchObject({
      type: 'card.created',
    });
    expect(standard!.headers).not.toHaveProperty('service-signature');

    expect((await patch(endpoint.id, { signature_scheme: 'purser' })).json().signature_scheme).toBe('purser');
    const refused = await patch(endpoint.id, { signature_scheme: 'svix' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.code).toBe('invalid_request');
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });

  it('asks an endpoint whose secret predates the base64 form to roll it before switching', async () => {
    const endpoint = await createEndpoint({});
    // A secret as they were minted before: 43 characters of random base62 text. Not base64 with its
    // padding, so Standard Webhooks libraries that decode strictly (Python's) would refuse it.
    const legacy = `whsec_${randomToken(32)}`;
    await f.t.ctx.db
      .updateTable('webhook_endpoints')
      .set({ secret_ciphertext: f.t.ctx.sealer.seal(legacy, endpoint.id) })
      .where('id', '=', endpoint.id)
      .execute();

    const refused = await patch(endpoint.id, { signature_scheme: 'standard_webhooks' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.field_errors).toHaveProperty('signature_scheme');
    expect(refused.json().error.message).toContain('roll_secret');
    const unchanged = await f.t.call('GET', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
    expect(unchanged.json().signature_scheme).toBe('purser');

    const rolled = await f.t.call('POST', `/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, {
      token: key(),
    });
    expect(rolled.json().secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect((await patch(endpoint.id, { signature_scheme: 'standard_webhooks' })).statusCode).toBe(200);
    await f.t.call('DELETE', `/api/v1/webhook_endpoints/${endpoint.id}`, { token: key() });
  });
});
