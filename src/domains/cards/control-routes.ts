import { Type } from 'typebox';
import { listOf } from '../../core/pagination.ts';
import { documented, errorResponses, Nullable, type RoutesApp, withExample } from '../../core/schemas.ts';
import type { Principal } from '../auth/index.ts';
import { platformGuard } from '../auth/index.ts';
import { INTERVALS, MAX_LIMITS, MAX_LIST } from './controls.ts';
import { merchantCategories } from './merchant-categories.ts';
import type { CardRoutesOptions } from './routes.ts';
import { scopeOf } from './service.ts';

/*
 * Spending controls (docs/cards.md, "Spending controls"): their schemas, which the card routes
 * share, the merchant category catalog, and a user's controls. Registered inside the card routes'
 * scope (`cardRoutes`), where the shared schemas live.
 */

const strict = { additionalProperties: false } as const;

const Categories = (description: string) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 120 }), {
    maxItems: MAX_LIST,
    description: `${description}: four-digit merchant category codes or names of GET /api/v2/merchant_categories`,
  });
const Countries = (description: string) =>
  Type.Array(Type.String({ pattern: '^[A-Za-z]{2}$' }), {
    maxItems: MAX_LIST,
    description: `${description}: ISO 3166-1 alpha-2 country codes`,
  });
const Interval = Type.Unsafe<(typeof INTERVALS)[number]>({
  ...Type.Union(INTERVALS.map((interval) => Type.Literal(interval))),
  description:
    '`per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), ' +
    '`monthly`, `yearly`, `all_time`',
});
const LimitFields = {
  amount_cents: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  interval: Interval,
};

const SpendingLimitInput = Type.Object(
  {
    ...LimitFields,
    categories: Type.Optional(Categories('Only charges in these categories count and are limited')),
  },
  strict,
);

/** The controls as a request gives them: every list optional. */
export const SpendingControlsInput = Type.Object(
  {
    allowed_categories: Type.Optional(Categories('Only these categories may charge')),
    blocked_categories: Type.Optional(Categories('These categories are declined')),
    allowed_merchant_countries: Type.Optional(Countries('Only merchants in these countries may charge')),
    blocked_merchant_countries: Type.Optional(Countries('Merchants in these countries are declined')),
    spending_limits: Type.Optional(
      Type.Array(SpendingLimitInput, {
        maxItems: MAX_LIMITS,
        description:
          'Each limit counts approved authorizations less what voids and refunds gave back, in its window',
      }),
    ),
  },
  {
    ...strict,
    description:
      'Allowed and blocked lists of one kind exclude each other (`400` naming both). A charge must pass the ' +
      "card's controls and its user's.",
  },
);

/** The controls as shown: every list present. */
export const SpendingControlsObject = Type.Object(
  {
    allowed_categories: Type.Array(Type.String()),
    blocked_categories: Type.Array(Type.String()),
    allowed_merchant_countries: Type.Array(Type.String()),
    blocked_merchant_countries: Type.Array(Type.String()),
    spending_limits: Type.Array(
      Type.Object({ ...LimitFields, categories: Type.Optional(Type.Array(Type.String())) }),
    ),
  },
  { $id: 'SpendingControls', description: 'Where and how much a card (or all cards of a user) may spend.' },
);

export const noControls = {
  allowed_categories: [],
  blocked_categories: [],
  allowed_merchant_countries: [],
  blocked_merchant_countries: [],
  spending_limits: [],
};

export const controlsExample = {
  ...noControls,
  blocked_categories: ['betting_casino_gambling'],
  spending_limits: [{ amount_cents: 20000, interval: 'daily' as const }],
};

/** On a transaction the controls declined: which control, and for a limit what it had spent. */
export const SpendingControlRefusal = Nullable(
  Type.Object(
    {
      source: Type.Union([Type.Literal('card'), Type.Literal('user'), Type.Literal('mandate')], {
        description:
          '`mandate`: the spending mandate the card is held to (`decline_reason` `MANDATE_EXCEEDED`)',
      }),
      rule: Type.Union(
        [
          Type.Literal('allowed_categories'),
          Type.Literal('blocked_categories'),
          Type.Literal('allowed_merchant_countries'),
          Type.Literal('blocked_merchant_countries'),
          Type.Literal('spending_limits'),
          Type.Literal('status'),
          Type.Literal('expires_at'),
          Type.Literal('currency'),
          Type.Literal('max_amount_cents'),
          Type.Literal('allowed_merchants'),
          Type.Literal('budget'),
        ],
        { description: 'The list of the controls, or the term of the mandate, that refused the charge' },
      ),
      mandate_id: Type.Optional(Type.String({ description: 'Of a mandate’s refusal: the mandate' })),
      interval: Type.Optional(Interval),
      limit_cents: Type.Optional(Type.Integer()),
      spent_cents: Type.Optional(
        Type.Integer({ description: 'What the window had spent before this charge' }),
      ),
    },
    { description: 'The spending control that declined the transaction (null otherwise)' },
  ),
);

const UserControlsObject = Type.Object(
  {
    object: Type.Literal('spending_controls'),
    user_id: Type.String(),
    ...SpendingControlsObject.properties,
  },
  {
    $id: 'UserSpendingControls',
    description: "A user's spending controls: every card of the user obeys them.",
  },
);

const MerchantCategoryList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(
      Type.Object({
        object: Type.Literal('merchant_category'),
        name: Type.String({ description: 'What `*_categories` take, beside four-digit codes' }),
        description: Type.String(),
        mccs: Type.Array(Type.String(), {
          description: 'The codes it covers: four digits, or an inclusive range (`3000-3350`)',
        }),
      }),
    ),
    has_more: Type.Boolean(),
  },
  { description: 'Every category, in code order (one page).' },
);

/** The shared schemas these routes and the card routes use. */
export const controlSchemas = [SpendingControlsObject, UserControlsObject];

const userExample = {
  object: 'spending_controls' as const,
  user_id: 'usr_3Fk9LmN2pQr7StUv',
  ...controlsExample,
};

export async function spendingControlRoutes(
  app: RoutesApp,
  { auth, cards, controls }: Pick<CardRoutesOptions, 'auth' | 'cards' | 'controls'>,
): Promise<void> {
  const common = { onRequest: platformGuard(auth) };
  const security = [{ platformToken: [] }];
  const scope = (request: { principal: Principal | null }) => scopeOf(request.principal!);

  app.get(
    '/api/v2/merchant_categories',
    {
      ...common,
      schema: {
        tags: ['Spending controls'],
        security,
        operationId: 'listMerchantCategories',
        summary: 'The merchant category catalog (ISO 18245)',
        description:
          'The names spending controls take beside four-digit codes. The data ships with Purser ' +
          '(`src/domains/cards/merchant-categories.json`, which names its source).',
        response: {
          200: documented(MerchantCategoryList, 'The catalog.', {
            object: 'list',
            data: [
              {
                object: 'merchant_category',
                name: 'grocery_stores_supermarkets',
                description: 'Grocery Stores, Supermarkets',
                mccs: ['5411'],
              },
            ],
            has_more: false,
          }),
          ...errorResponses(401, 403, 503),
        },
      },
    },
    async () =>
      listOf(merchantCategories().map((category) => ({ object: 'merchant_category' as const, ...category }))),
  );

  const UserParams = Type.Object({ user_id: Type.String() });
  app.get(
    '/api/v2/users/:user_id/spending_controls',
    {
      ...common,
      schema: {
        tags: ['Spending controls'],
        security,
        operationId: 'getUserSpendingControls',
        summary: "A user's spending controls",
        description: 'Every list is empty until set.',
        params: UserParams,
        response: {
          200: documented(UserControlsObject, "The user's controls.", userExample),
          ...errorResponses(401, 403, 404, 503, { 404: 'No such user in this organization and mode.' }),
        },
      },
    },
    async (request) => {
      await cards.requireUser(scope(request), request.params.user_id);
      return controls.forUser(scope(request), request.params.user_id);
    },
  );

  app.put(
    '/api/v2/users/:user_id/spending_controls',
    {
      ...common,
      schema: {
        tags: ['Spending controls'],
        security,
        operationId: 'setUserSpendingControls',
        summary: "Set a user's spending controls (every card of the user)",
        description:
          'Replaces them whole: a list left out is empty. Every charge on any card of the user must pass them ' +
          "as well as the card's own, checked before the balance (`DECLINED` with `CATEGORY_BLOCKED`, " +
          '`COUNTRY_BLOCKED` or `SPENDING_LIMIT_EXCEEDED`, and `spending_control.source: "user"`).',
        params: UserParams,
        body: withExample(SpendingControlsInput, controlsExample),
        response: {
          200: documented(UserControlsObject, 'The controls as set.', userExample),
          ...errorResponses(400, 401, 403, 404, 503, {
            400: 'An unknown category or country, or an allowed and a blocked list of one kind both set (`invalid_request` naming each field).',
            404: 'No such user in this organization and mode.',
          }),
        },
      },
    },
    async (request) => {
      await cards.requireUser(scope(request), request.params.user_id);
      return controls.setForUser(scope(request), request.params.user_id, request.body);
    },
  );
}
