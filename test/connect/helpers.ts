import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/harness.ts';

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

export function start(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.call('POST', '/api/v2/connect/start', { token, body });
}

export function verify(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.call('POST', '/api/v2/connect/verify', { token, body });
}

export function consent(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.call('POST', '/api/v2/connect/consent', { token, body });
}

export function refresh(t: TestApp, token: string, body: unknown): Promise<LightMyRequestResponse> {
  return t.call('POST', '/api/v2/connect/refresh', { token, body });
}

/** Starts an attempt and returns its id (asserting the 201). */
export async function startAttempt(
  t: TestApp,
  token: string,
  body: { email?: string; phone?: string; external_user_id?: string },
): Promise<string> {
  const response = await start(t, token, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

/** The code in the newest outbox message for this recipient. */
export async function outboxCode(t: TestApp, recipient: string): Promise<string> {
  const messages = (await t.ctx.notifications.outbox(1000)).filter((m) => m.recipient === recipient);
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
  const connectId = await startAttempt(t, token, body);
  const code = options.production
    ? await outboxCode(t, (body.email?.toLowerCase() ?? body.phone) as string)
    : SANDBOX_CODE;
  const response = await verify(t, token, { connect_id: connectId, code });
  expect(response.statusCode, response.body).toBe(200);
  const json = response.json();
  return {
    connectId,
    userId: json.user.id,
    accessToken: json.access_token,
    refreshToken: json.refresh_token,
    body: json,
  };
}
