import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { constructEvent, verifySignature, WebhookVerificationError } from '../src/index.ts';

const secret = 'whsec_testsecret';
const body = '{"id":"evt_1","type":"card.created","created":1700000000,"livemode":false,"data":{"a":"é"}}';
const t = 1_700_000_000;
const sign = (s: string, payload: string | Buffer, ts = t) =>
  createHmac('sha256', s).update(`${ts}.`).update(payload).digest('hex');
const header = (ts = t, s = secret, payload: string | Buffer = body) => `t=${ts},v1=${sign(s, payload, ts)}`;

describe('verifySignature', () => {
  it('accepts a valid signature within the tolerance, from a string or the raw bytes', () => {
    expect(verifySignature(body, header(), secret, { now: t })).toBe(true);
    expect(verifySignature(Buffer.from(body), header(), secret, { now: t + 299 })).toBe(true);
    expect(
      verifySignature(new Uint8Array(Buffer.from(body)), header(), secret, { now: new Date(t * 1000) }),
    ).toBe(true);
  });

  it('refuses a timestamp more than 300 seconds away, either side, unless told otherwise', () => {
    // Spec §8: a tolerance of 300 seconds; exactly 300 away still holds.
    expect(verifySignature(body, header(), secret, { now: t + 300 })).toBe(true);
    expect(verifySignature(body, header(), secret, { now: t - 300 })).toBe(true);
    expect(verifySignature(body, header(), secret, { now: t + 301 })).toBe(false);
    expect(verifySignature(body, header(), secret, { now: t - 301 })).toBe(false);
    expect(verifySignature(body, header(), secret, { now: t + 600, toleranceSeconds: 600 })).toBe(true);
  });

  it('uses the system clock by default', () => {
    const now = Math.floor(Date.now() / 1000);
    expect(verifySignature(body, header(now), secret)).toBe(true);
    expect(verifySignature(body, header(now - 1000), secret)).toBe(false);
  });

  it('is false, never throws, on a wrong secret, altered body or re-serialized JSON', () => {
    expect(verifySignature(body, header(), 'whsec_other', { now: t })).toBe(false);
    expect(verifySignature(body.replace('card', 'carx'), header(), secret, { now: t })).toBe(false);
    expect(verifySignature(JSON.stringify(JSON.parse(body), null, 1), header(), secret, { now: t })).toBe(
      false,
    );
  });

  it('is false on missing or malformed headers', () => {
    const bad: unknown[] = [
      undefined,
      null,
      '',
      'garbage',
      `v1=${sign(secret, body)}`,
      `t=${t}`,
      `t=abc,v1=${sign(secret, body)}`,
      `t=${t},v1=zz`,
      `t=${t},v1=${sign(secret, body).slice(0, 63)}`,
      `sha256=${sign(secret, body)}`,
      42,
      {},
    ];
    for (const h of bad) expect(verifySignature(body, h as string, secret, { now: t })).toBe(false);
    expect(verifySignature(body, header(), '', { now: t })).toBe(false);
    expect(verifySignature(body, header(), [], { now: t })).toBe(false);
    expect(verifySignature(null as unknown as string, header(), secret, { now: t })).toBe(false);
  });

  it('accepts any of several secrets (zero-downtime rotation) and any of several v1 entries', () => {
    expect(verifySignature(body, header(), ['whsec_new', secret], { now: t })).toBe(true);
    expect(
      verifySignature(body, `t=${t},v1=${'0'.repeat(64)},v1=${sign(secret, body)}`, secret, { now: t }),
    ).toBe(true);
    expect(verifySignature(body, [header()], secret, { now: t })).toBe(true);
  });
});

describe('constructEvent', () => {
  it('verifies then parses the envelope', () => {
    const event = constructEvent<{ a: string }>(body, header(), secret, { now: t });
    expect(event).toEqual({
      id: 'evt_1',
      type: 'card.created',
      created: t,
      livemode: false,
      data: { a: 'é' },
    });
  });

  it('throws WebhookVerificationError when the signature does not hold or the body is not an event', () => {
    expect(() => constructEvent(body, 'nope', secret, { now: t })).toThrow(WebhookVerificationError);
    expect(() => constructEvent('not json', header(t, secret, 'not json'), secret, { now: t })).toThrow(
      WebhookVerificationError,
    );
    expect(() => constructEvent('[1]', header(t, secret, '[1]'), secret, { now: t })).toThrow(/not an event/);
  });
});
