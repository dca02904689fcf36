import { describe, expect, it } from 'vitest';
import { loadWebhookConfig } from '../../src/domains/events/config.ts';

describe('webhook settings', () => {
  it("keep private receivers' answers only on a developer's machine (BASE_URL on loopback)", () => {
    for (const base of [undefined, 'http://localhost:3000', 'http://127.0.0.1:8080', 'http://[::1]:3000'])
      expect(loadWebhookConfig({ BASE_URL: base }).privateExcerpts, String(base)).toBe(true);
    for (const base of ['https://api.example.com', 'http://10.0.0.5:3000', 'http://purser.test'])
      expect(loadWebhookConfig({ BASE_URL: base }).privateExcerpts, base).toBe(false);
  });
});
