import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/env.ts';
import { loadMessagingConfig } from '../../src/domains/messaging/config.ts';

const provider = {
  MESSAGING_PROVIDER_URL: 'https://messaging.example/api/',
  MESSAGING_CLIENT_ID: 'purser',
  MESSAGING_CLIENT_SECRET: 'secret-0123456789',
};

describe('MESSAGING_* settings', () => {
  it('unset: no provider, and the defaults', () => {
    expect(loadMessagingConfig({})).toEqual({
      provider: null,
      scopes: ['messages:send'],
      stateTtlSeconds: 600,
      refreshBeforeSeconds: 300,
      timeoutMs: 10_000,
    });
  });

  it('reads the provider and the scopes asked for', () => {
    const config = loadMessagingConfig({ ...provider, MESSAGING_SCOPES: 'messages:send contacts:read' });
    expect(config.provider).toEqual({
      url: 'https://messaging.example/api',
      clientId: 'purser',
      clientSecret: 'secret-0123456789',
    });
    expect(config.scopes).toEqual(['messages:send', 'contacts:read']);
  });

  it('refuses a partial provider, a bad URL, bad scopes and out-of-range numbers, naming the variable', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [
        { MESSAGING_PROVIDER_URL: provider.MESSAGING_PROVIDER_URL },
        /missing MESSAGING_CLIENT_ID, MESSAGING_CLIENT_SECRET/,
      ],
      [
        { ...provider, MESSAGING_PROVIDER_URL: 'messaging.example' },
        /MESSAGING_PROVIDER_URL must be an absolute URL/,
      ],
      [{ ...provider, MESSAGING_PROVIDER_URL: 'ftp://messaging.example' }, /http or https/],
      [{ ...provider, MESSAGING_PROVIDER_URL: 'https://u:p@messaging.example' }, /credentials/],
      [{ ...provider, MESSAGING_SCOPES: 'messages:send "quoted"' }, /MESSAGING_SCOPES/],
      [{ MESSAGING_OAUTH_STATE_TTL_SECONDS: '5' }, /MESSAGING_OAUTH_STATE_TTL_SECONDS/],
      [{ MESSAGING_TIMEOUT_MS: 'soon' }, /MESSAGING_TIMEOUT_MS/],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadMessagingConfig(env)).toThrow(ConfigError);
      expect(() => loadMessagingConfig(env)).toThrow(message);
    }
  });
});
