import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  type FakeMessagingProvider,
  startFakeMessagingProvider,
} from '../helpers/fake-messaging-provider.ts';
import { type OrgApp, type UseOrgAppOptions, useOrgApp } from '../helpers/fixtures.ts';
import { startTestApp } from '../helpers/harness.ts';

/** The test file's app, wired to its own fake messaging provider (whose token clock is the app's). */
export function useMessagingApp(options: UseOrgAppOptions = {}): {
  f: OrgApp;
  provider: () => FakeMessagingProvider;
} {
  let fake: FakeMessagingProvider;
  const f = useOrgApp({
    ...options,
    start: async (env) => {
      fake = await startFakeMessagingProvider({ clock: { now: () => f.t.clock.now() } });
      return startTestApp({ ...env, ...fake.env });
    },
    afterClose: () => fake.close(),
  });
  return { f, provider: () => fake };
}

/** `POST /api/v2/provider/oauth/start` with this platform token; the answer's body. */
export async function startOAuth(
  f: OrgApp,
  token: string,
): Promise<{ url: string; state: string; expires_at: string }> {
  const response = await f.t.call('POST', '/api/v2/provider/oauth/start', { token });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** Opens the consent URL as a browser would and answers where the provider redirects back to. */
export async function consent(url: string): Promise<URL> {
  const response = await fetch(url, { redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('location')!);
}

/** Follows the provider's redirect into Purser's callback (as the browser's next request). */
export function callback(f: OrgApp, redirect: URL, accept = 'text/html'): Promise<LightMyRequestResponse> {
  return f.t.request({ method: 'GET', url: redirect.pathname + redirect.search, headers: { accept } });
}

/** The whole connect flow for this platform token: start, consent at the provider, callback. */
export async function connectProvider(f: OrgApp, token: string): Promise<LightMyRequestResponse> {
  const started = await startOAuth(f, token);
  return callback(f, await consent(started.url));
}
