import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useCards } from '../cards/helpers.ts';

/** Mandates and receipts in every reference (issue 28, "Everywhere"): OpenAPI, /docs, /docs/errors, the SDK. */
const f = useCards();

const OPERATIONS = {
  createMandate: ['post', '/api/v2/users/{user_id}/mandates'],
  listMandates: ['get', '/api/v2/users/{user_id}/mandates'],
  getMandate: ['get', '/api/v2/mandates/{id}'],
  revokeMandate: ['delete', '/api/v2/mandates/{id}'],
  getOrderReceipt: ['get', '/api/v2/orders/{id}/receipt'],
  getReceiptKeys: ['get', '/.well-known/jwks.json'],
} as const;

describe('mandates and receipts in the references', () => {
  it('the OpenAPI document has every operation, with its security and schemas', async () => {
    const response = await f.t.request({ method: 'GET', url: '/api/v2/openapi.json' });
    const document = response.json();
    for (const [operationId, [method, path]] of Object.entries(OPERATIONS)) {
      const operation = document.paths[path]?.[method];
      expect(operation?.operationId, `${method} ${path}`).toBe(operationId);
      expect(operation.security, operationId).toBeDefined();
    }
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['Mandate', 'MandateTerms', 'MandateList', 'Receipt', 'ReceiptJwks']),
    );
    const docs = await f.t.request({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
  });

  it('/docs/errors names the mandate errors, and the SDK is generated from this document', async () => {
    const errors = await f.t.request({ method: 'GET', url: '/docs/errors' });
    expect(errors.body).toContain('id="invalid_mandate_state"');
    const sdk = readFileSync(new URL('../../packages/sdk/src/schema.d.ts', import.meta.url), 'utf8');
    for (const operationId of Object.keys(OPERATIONS)) expect(sdk).toContain(`${operationId}: {`);
    const classes = readFileSync(new URL('../../packages/sdk/src/error-classes.ts', import.meta.url), 'utf8');
    expect(classes).toContain('InvalidMandateStateError');
  });
});
