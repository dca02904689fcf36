import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/harness.ts';

export {
  type Connected,
  connectUser,
  expectError,
  outboxCode,
  SANDBOX_CODE,
  uniqueEmail,
} from '../helpers/fixtures.ts';

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
