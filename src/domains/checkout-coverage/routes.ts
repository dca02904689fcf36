import { Type } from 'typebox';
import { documented, errorResponses, type RoutesApp } from '../../core/schemas.ts';
import { type AuthService, platformGuard } from '../auth/index.ts';
import { CoverageCatalog, loadCoverage } from './coverage.ts';

const CoverageObject = Type.Object(
  { object: Type.Literal('checkout_coverage'), ...CoverageCatalog.properties },
  {
    $id: 'CheckoutCoverage',
    description:
      'Which payment processors purchases reach, and how. Recognition of a processor is not a purchase test: ' +
      'each merchant and browser combination needs end-to-end validation.',
  },
);

/** `GET /api/v2/checkout/coverage` (spec §4): the catalog, loaded and checked once at start. */
export async function checkoutRoutes(app: RoutesApp, { auth }: { auth: AuthService }): Promise<void> {
  const coverage = { object: 'checkout_coverage' as const, ...loadCoverage() };
  app.addSchema(CoverageObject);
  app.get(
    '/api/v2/checkout/coverage',
    {
      onRequest: platformGuard(auth),
      schema: {
        tags: ['Checkout'],
        security: [{ platformToken: [] }],
        operationId: 'getCheckoutCoverage',
        summary: 'The payment processors purchases reach, and how',
        response: {
          200: documented(CoverageObject, 'The coverage catalog (docs/checkout-coverage.md).', coverage),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async () => coverage,
  );
}
