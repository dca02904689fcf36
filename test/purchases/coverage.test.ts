import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCoverage } from '../../src/domains/checkout-coverage/coverage.ts';
import { expectError, useOrgApp } from '../helpers/fixtures.ts';

const f = useOrgApp();

const PROCESSOR_KEYS = [
  'psp',
  'mode',
  'methods',
  'hosts',
  'client_side_encryption',
  'challenge_surface',
  'outcome',
  'request_flows',
  'limitations',
];

describe('GET /api/v2/checkout/coverage', () => {
  it('answers the checkout_coverage object with every field of the spec, in both modes', async () => {
    for (const token of [f.sandbox, f.production]) {
      const response = await f.t.call('GET', '/api/v2/checkout/coverage', { token });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(Object.keys(body)).toEqual([
        'object',
        'integration',
        'merchant_confirmation_required',
        'validation',
        'processors',
      ]);
      expect(body.object).toBe('checkout_coverage');
      expect(typeof body.integration).toBe('string');
      expect(typeof body.merchant_confirmation_required).toBe('boolean');
      expect(typeof body.validation).toBe('string');
      expect(body.processors.length).toBeGreaterThan(0);
      for (const processor of body.processors) {
        expect(Object.keys(processor)).toEqual(PROCESSOR_KEYS);
        for (const flow of processor.request_flows)
          expect(Object.keys(flow)).toEqual(['flow', 'coverage', 'amount_authority']);
        for (const list of [processor.methods, processor.hosts, processor.limitations])
          expect(Array.isArray(list)).toBe(true);
      }
      // The processors the built-in merchants and the ACP adapter use.
      expect(body.processors.map((p: { psp: string }) => p.psp)).toEqual(
        expect.arrayContaining(['purser_sandbox', 'acp_delegated_payment']),
      );
    }
  });

  it('needs a platform token', async () => {
    expectError(await f.t.call('GET', '/api/v2/checkout/coverage'), 401, 'unauthorized');
    expectError(
      await f.t.call('GET', '/api/v2/checkout/coverage', { token: f.org.sandbox.api_key }),
      401,
      'unauthorized',
    );
  });

  it('refuses to start on a catalog that breaks its schema', () => {
    const file = join(tmpdir(), `coverage-${process.pid}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        integration: 'direct_sdk',
        merchant_confirmation_required: 'yes',
        validation: 'x',
        processors: [],
      }),
    );
    expect(() => loadCoverage(new URL(`file://${file}`))).toThrow(/checkout coverage catalog .* is invalid/);
  });
});
