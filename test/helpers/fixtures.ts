/**
 * The fixtures every test area shares (STYLE.md): an app on a fresh database with an organization
 * and its clients, a connected user, an approved user, a funded wallet. A test file states only what
 * is particular to it.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { CreatedOrganization } from '../../src/domains/orgs/service.ts';
import { startTestApp, type TestApp } from './harness.ts';

/** The sandbox code (spec §4, Connect). */
export const SANDBOX_CODE = '111111';

/** Asserts a v2 error body (spec §7) with this status and code; returns the parsed body's error. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
): { code: string; message: string; docs: string; field_errors: Record<string, string>; warnings: string[] } {
  expect({ status: response.statusCode, body: response.json() }).toEqual({
    status,
    body: {
      error: {
        code,
        message: expect.any(String),
        docs: expect.any(String),
        field_errors: expect.any(Object),
        warnings: expect.any(Array),
      },
    },
  });
  return response.json().error;
}

let counter = 0;
/** A recipient address no other test uses, so outbox lookups by recipient are unambiguous. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The code in the newest outbox message for this recipient. */
export async function outboxCode(t: TestApp, recipient: string): Promise<string> {
  const messages = (await t.ctx.notifications.sentMessages(1000)).filter((m) => m.recipient === recipient);
  expect(messages.length, `outbox message for ${recipient}`).toBeGreaterThan(0);
  const match = /\b(\d{6})\b/.exec(messages[0]!.body);
  expect(match, messages[0]!.body).not.toBeNull();
  return match![1]!;
}

export interface Connected {
  connectId: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  body: Record<string, unknown>;
}

/**
 * Connects a user end to end: start, read the code (the sandbox constant, or the outbox for a
 * production token when `production` is set), verify.
 */
export async function connectUser(
  t: TestApp,
  token: string,
  body: { email?: string; phone?: string; external_user_id?: string },
  options: { production?: boolean } = {},
): Promise<Connected> {
  const started = await t.call('POST', '/api/v2/connect/start', { token, body });
  expect(started.statusCode, withAppWarnings(t, started.body)).toBe(201);
  const connectId = started.json().id as string;
  const code = options.production
    ? await outboxCode(t, (body.email?.toLowerCase() ?? body.phone) as string)
    : SANDBOX_CODE;
  const response = await t.call('POST', '/api/v2/connect/verify', {
    token,
    body: { connect_id: connectId, code },
  });
  expect(response.statusCode, withAppWarnings(t, response.body)).toBe(200);
  const json = response.json();
  return {
    connectId,
    userId: json.user.id,
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    body: json,
  };
}

/** A failed expectation's message: the response's body and what the app logged at warn level or above. */
export function withAppWarnings(t: TestApp, body: string): string {
  const errors = t.logs.lines.filter((line) => /"level":(40|50|60)/.test(line));
  return errors.length === 0 ? body : `${body}\napp warnings and errors:\n${errors.join('')}`;
}

/** A worker logger that says nothing. */
export const quiet = { info: () => {}, error: () => {} };

/**
 * An app on a fresh database with one organization: its sandbox and production clients (their API
 * keys in `org.sandbox.api_key` and `org.production.api_key`) and a platform token for each.
 */
export interface OrgApp {
  t: TestApp;
  org: CreatedOrganization;
  /** Platform tokens of the sandbox and production clients. */
  sandbox: string;
  production: string;
  /** Mints new platform tokens (after the clock moved past their hour). */
  renewTokens(): Promise<void>;
  close(): Promise<void>;
}

export interface OrgAppOptions {
  /** Settings of the app, over the harness's. */
  env?: Record<string, string>;
  /** How the app starts (an area's own variant of `startTestApp`). */
  start?: (env: Record<string, string>) => Promise<TestApp>;
  /** Name of the organization. */
  name?: string;
}

/**
 * Starts an app with one organization and its platform tokens, in `target` when given (an object a
 * test file made before its tests start: see `useOrgApp`).
 */
export async function startOrgApp(options: OrgAppOptions = {}, target = {} as OrgApp): Promise<OrgApp> {
  const t = await (options.start ?? startTestApp)(options.env ?? {});
  Object.assign(target, {
    t,
    org: await t.createOrg(options.name),
    async renewTokens() {
      target.sandbox = await t.platformToken(target.org.sandbox);
      target.production = await t.platformToken(target.org.production);
    },
    close: () => t.close(),
  });
  await target.renewTokens();
  return target;
}

export interface UseOrgAppOptions extends OrgAppOptions {
  /**
   * Before each test: `tokens` mints new platform tokens (for tests that move the clock by an hour
   * or more); `organization` creates a new organization (named `name`) and mints its tokens, for
   * tests whose data would conflict with the next test's.
   */
  each?: 'tokens' | 'organization';
  /** What else to close once the app is closed. */
  afterClose?: () => Promise<void>;
}

/**
 * The app and organization of a whole test file: started before all its tests, closed after them.
 * Read the fields inside tests (they are set once the file's tests start).
 */
export function useOrgApp(options: UseOrgAppOptions = {}): OrgApp {
  const fixture = {} as OrgApp;
  beforeAll(() => startOrgApp(options, fixture));
  if (options.each === 'tokens') beforeEach(() => fixture.renewTokens());
  if (options.each === 'organization')
    beforeEach(async () => {
      fixture.org = await fixture.t.createOrg(options.name);
      await fixture.renewTokens();
    });
  afterAll(async () => {
    await fixture.close();
    await options.afterClose?.();
  });
  return fixture;
}

/** A user connected to the organization of this platform token (sandbox, or `production`); their id. */
export async function connectedUser(
  t: TestApp,
  token: string,
  options: { prefix?: string; production?: boolean } = {},
): Promise<string> {
  const connected = await connectUser(t, token, { email: uniqueEmail(options.prefix) }, options);
  return connected.userId;
}

/** Puts `amountCents` in a user's wallet (the sandbox's simulated funding). */
export function fundWallet(
  t: TestApp,
  token: string,
  userId: string,
  amountCents: number,
): Promise<LightMyRequestResponse> {
  return t.call('POST', '/api/v2/simulate/wallet_funding', {
    token,
    body: { user_id: userId, amount_cents: amountCents },
  });
}

/** A connected sandbox user whose verification is approved, with `fund` cents in their wallet. */
export async function approvedUser(
  t: TestApp,
  token: string,
  options: { fund?: number; prefix?: string } = {},
): Promise<string> {
  const userId = await connectedUser(t, token, options);
  const approved = await t.call('POST', '/api/v2/kyc/simulate', {
    token,
    body: { user_id: userId, outcome: 'approved' },
  });
  expect(approved.statusCode, approved.body).toBe(200);
  const fund = options.fund ?? 0;
  if (fund > 0) expect((await fundWallet(t, token, userId, fund)).statusCode).toBe(200);
  return userId;
}
