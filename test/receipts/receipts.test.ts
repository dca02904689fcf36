import { generateKeyPairSync, sign } from 'node:crypto';
import { compactVerify, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/commands.ts';
import { DAY } from '../../src/core/clock.ts';
import { startTestApp, type TestApp } from '../helpers/harness.ts';

/*
 * Receipts (issue 28; docs/mandates.md "Receipts"): a compact JWS by a key published at
 * `/.well-known/jwks.json`, checked here with a JOSE library as a merchant or an auditor would.
 */

let t: TestApp;
let org: string;
let credentials: Awaited<ReturnType<TestApp['createOrg']>>;
let sandbox: string;
let live: string;
beforeAll(async () => {
  t = await startTestApp({ RECEIPT_KEY_RETENTION_DAYS: '30' });
  credentials = await t.createOrg();
  org = credentials.organization_id;
  sandbox = await t.platformToken(credentials.sandbox);
  live = await t.platformToken(credentials.production);
});
afterAll(async () => t.close());

async function jwks(): Promise<JSONWebKeySet> {
  const response = await t.call('GET', '/.well-known/jwks.json');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The receipt as jose verifies it against the published keys: its claims, or the error. */
async function verify(jws: string) {
  const keys = createLocalJWKSet(await jwks());
  const { payload, protectedHeader } = await compactVerify(jws, keys, { algorithms: ['ES256'] });
  return { claims: JSON.parse(new TextDecoder().decode(payload)), header: protectedHeader };
}

async function purser(...argv: string[]) {
  const printed: string[] = [];
  await runCommand(t.ctx, argv, (text) => printed.push(text));
  return printed.join('\n');
}

let orders = 0;
/** A receipt as placement under a mandate issues it. */
async function receipt() {
  const claims = {
    mandate_id: 'mdt_test',
    terms_hash: 'a'.repeat(64),
    cart_hash: 'b'.repeat(64),
    order_id: `ord_receipt${++orders}`,
    amount_cents: 1093,
    currency: 'usd',
    merchant: 'coffee',
    placed_at: new Date(t.clock.now()).toISOString(),
  };
  const jws = await t.ctx.receipts.issue(t.ctx.db, { organizationId: org, livemode: false }, claims);
  return { jws, claims };
}

/** The same JWS with one byte of its part `part` (0 header, 1 payload, 2 signature) changed. */
function changeByte(jws: string, part: number): string {
  const parts = jws.split('.');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('receipt keys', () => {
  it('publishes P-256 keys named by their RFC 7638 thumbprint, with no private part', async () => {
    const { keys } = await jwks();
    expect(keys).toHaveLength(1);
    const [key] = keys;
    expect(Object.keys(key!).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y']);
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    const { calculateJwkThumbprint } = await import('jose');
    expect(key!.kid).toBe(await calculateJwkThumbprint(key!, 'sha256'));
  });

  it('keeps private keys sealed at rest', async () => {
    const rows = await t.ctx.db.selectFrom('receipt_keys').selectAll().execute();
    for (const row of rows) {
      expect(row.private_key_sealed).toMatch(/^v1\.[0-9a-f]{8}\./);
      expect(row.private_key_sealed).not.toContain('PRIVATE KEY');
    }
  });
});

describe('a receipt', () => {
  it('verifies with jose against the published keys, and states exactly the order', async () => {
    const { jws, claims } = await receipt();
    const verified = await verify(jws);
    expect(verified.claims).toEqual(claims);
    expect(Object.keys(verified.claims)).toEqual([
      'mandate_id',
      'terms_hash',
      'cart_hash',
      'order_id',
      'amount_cents',
      'currency',
      'merchant',
      'placed_at',
    ]);
    expect(verified.header).toEqual({ alg: 'ES256', kid: (await jwks()).keys[0]!.kid });
  });

  it('fails on any changed byte: header, payload or signature', async () => {
    const { jws } = await receipt();
    for (const part of [0, 1, 2])
      await expect(verify(changeByte(jws, part)), `part ${part}`).rejects.toThrow();
    // A changed amount, re-encoded cleanly, fails the signature.
    const [header, , signature] = jws.split('.');
    const { claims } = await verify(jws);
    const forged = Buffer.from(JSON.stringify({ ...claims, amount_cents: 1 })).toString('base64url');
    await expect(verify(`${header}.${forged}.${signature}`)).rejects.toThrow(/signature verification failed/);
  });

  it('fails on a kid that is not published, even when well signed', async () => {
    const { jws } = await receipt();
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid: 'not-a-purser-key' })).toString(
      'base64url',
    );
    const input = `${header}.${jws.split('.')[1]}`;
    const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    await expect(verify(`${input}.${signature.toString('base64url')}`)).rejects.toThrow(
      /no applicable key found/,
    );
  });
});

describe('GET /api/v2/orders/{id}/receipt', () => {
  it('answers the receipt placement issued, to its organization and mode only', async () => {
    const { jws, claims } = await receipt();
    const response = await t.call('GET', `/api/v2/orders/${claims.order_id}/receipt`, { token: sandbox });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      object: 'receipt',
      order_id: claims.order_id,
      mandate_id: claims.mandate_id,
      kid: decodeProtectedHeader(jws).kid,
      jws,
      claims,
    });
    const other = await t.platformToken((await t.createOrg('Other')).sandbox);
    for (const token of [live, other]) {
      const hidden = await t.call('GET', `/api/v2/orders/${claims.order_id}/receipt`, { token });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json().error.code).toBe('not_found');
    }
  });
});

describe('purser keys rotate-receipts', () => {
  it('signs with a new key, keeps the old one for verification, and drops it when it expires', async () => {
    const before = await receipt();
    const oldKid = decodeProtectedHeader(before.jws).kid;
    const rotated = JSON.parse(await purser('keys', 'rotate-receipts', '--json'));
    expect(rotated.kid).not.toBe(oldKid);
    expect(rotated.retired).toEqual([
      expect.objectContaining({
        kid: oldKid,
        status: 'retired',
        expires_at: new Date(t.clock.now() + 30 * DAY).toISOString(),
      }),
    ]);
    // The retired key's private half is gone: nothing can sign with it again.
    const old = await t.ctx.db
      .selectFrom('receipt_keys')
      .selectAll()
      .where('kid', '=', oldKid!)
      .executeTakeFirst();
    expect(old?.private_key_sealed).toBeNull();

    const after = await receipt();
    expect(decodeProtectedHeader(after.jws).kid).toBe(rotated.kid);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([rotated.kid, oldKid]);
    await expect(verify(before.jws)).resolves.toMatchObject({ claims: before.claims });
    await expect(verify(after.jws)).resolves.toMatchObject({ claims: after.claims });

    // Just before the expiry the old key still verifies; at the expiry it is no longer published.
    t.clock.advance(30 * DAY - 1);
    await expect(verify(before.jws)).resolves.toMatchObject({ claims: before.claims });
    t.clock.advance(1);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([rotated.kid]);
    await expect(verify(before.jws)).rejects.toThrow(/no applicable key found/);
    await expect(verify(after.jws)).resolves.toMatchObject({ claims: after.claims });
    expect(await purser('keys', 'list-receipts')).toContain(`${oldKid}  expired`);

    // The order's receipt, fetched again, is the same claims signed by the current key.
    const fetched = await t.call('GET', `/api/v2/orders/${before.claims.order_id}/receipt`, {
      token: await t.platformToken(credentials.sandbox),
    });
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json()).toMatchObject({ kid: rotated.kid, claims: before.claims });
    await expect(verify(fetched.json().jws)).resolves.toMatchObject({ claims: before.claims });
  });
});
