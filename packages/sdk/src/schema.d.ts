/**
 * The Purser platform API's paths and schemas, generated from the OpenAPI document the service
 * serves (GET /api/v2/openapi.json) by `npm run sdk:generate`. Do not edit: regenerate.
 */

export interface paths {
    "/api/v2/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mint a platform access token (client-credentials grant)
         * @description Form-encoded (JSON also accepted). Credentials in the body or as HTTP Basic. Rate limited to 30 requests in any 300 seconds per client IP (sliding window).
         */
        post: operations["createPlatformToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Introspect the calling credential */
        get: operations["introspectCredential"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connect/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a one-time code to a user by email or phone */
        post: operations["createConnectAttempt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connect/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Verify the code; connects the user and returns their connection tokens */
        post: operations["verifyConnectAttempt"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connect/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Record the user's consent (idempotent per user) */
        post: operations["recordConsent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connect/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a connection refresh token */
        post: operations["refreshConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/embed_origins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The origins allowed to embed hosted pages */
        get: operations["getEmbedOrigins"];
        /**
         * Replace the origins allowed to embed hosted pages
         * @description Replaces the whole list for the calling mode. Each entry is an origin (`https://app.example.com`, `https` only except loopback hosts such as `http://localhost:3000`); they are stored canonical and without duplicates. At most 50. Hosted pages (the identity verification page) may be framed only by these origins (and, in test mode, by loopback origins).
         */
        put: operations["replaceEmbedOrigins"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List events, newest first
         * @description Events of the calling mode, kept at least 30 days. Filter by `type` (repeat it or separate with commas; exact names, `*`, or prefixes such as `card.*`) and by `created[gt|gte|lt|lte]` (Unix seconds). Page with `limit` and `starting_after`.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/events/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve an event */
        get: operations["getEvent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List webhook endpoints, newest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /** Create a webhook endpoint (answers its signing secret, shown once) */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Retrieve a webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint; what it is still owed is dropped with it */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /** Update a webhook endpoint; `status: "active"` re-enables it and resets its failure counter */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/roll_secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Roll the signing secret: answers the new one; the old one stops at once */
        post: operations["rollWebhookEndpointSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test event to this endpoint only (delivered and signed like any other) */
        post: operations["sendWebhookEndpointTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint's delivery log, newest first, each delivery with its attempts */
        get: operations["listWebhookEndpointDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send one event to this endpoint again, with a fresh set of attempts */
        post: operations["resendWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook_endpoints/{id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue again every delivery to this endpoint that failed or was cancelled since a time
         * @description Every event whose delivery to this endpoint failed (all its attempts spent) or was cancelled (the endpoint was disabled) at or after `since`, at most 14 days ago, is owed to it once more: one new delivery per event, with a fresh set of attempts, queued in the order the events happened. An event the endpoint is still owed, or has received since, is left alone, so a second call queues nothing twice. Answers how many were queued.
         */
        post: operations["recoverWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An event's deliveries to every endpoint of the mode, each with its attempts */
        get: operations["listEventDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/kyc/documents/front": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the front of an ID (or a passport data page: the branch point for passports) */
        post: operations["uploadKycDocumentFront"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/kyc/documents/back": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload the back of a licence or state ID: the branch point */
        post: operations["uploadKycDocumentBack"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/kyc/information": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit the fields listed in required_fields */
        post: operations["submitKycInformation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/kyc": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Read the current KYC state of a user */
        get: operations["getKycState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/kyc/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: simulate a review outcome
         * @description Test-mode credential only (403 sandbox_only). `requires_input` is the retryable bounce back to awaiting_documents. Fires identity.verification.updated; re-simulating overwrites. Answers the new state as GET /api/v2/kyc reports it.
         */
        post: operations["simulateKycOutcome"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/cards": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List cards, newest first */
        get: operations["listCards"];
        put?: never;
        /**
         * Issue a card funded from the user's wallet or the company wallet
         * @description Moves `amount_cents` from the user's wallet to the new card: its spend limit and first balance. The user must be approved (`422 kyc_required`) and the wallet must cover it (`402 insufficient_funds`). Fires `card.created` with `transfer_id: null`. With `funding: "company"` the company wallet pays instead: the answer is `202` and a `card_flow` (`card_flow.started` … `card.created` with `transfer_id`; see `GET /api/v2/card_flows/{transfer_id}`). `spending_controls` apply with either funding: a company-funded card gets them when the flow mints it.
         */
        post: operations["createCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/cards/{card_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A card */
        get: operations["getCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a card's spend limit or spending controls
         * @description `spend_limit_cents` (multi-use cards): raising it moves the difference from the wallet (`402 insufficient_funds`); lowering returns it (`409 spend_limit_below_spent` when the card has spent or holds more). A company-funded card's limit can only be lowered (`409 company_funded_card`): what that frees returns to the company pool with `transfer.released`. `spending_controls`: the lists given replace those of the card, the others stay; every later charge must pass them (docs: spending controls). Fires `card.updated`.
         */
        patch: operations["updateCard"];
        trace?: never;
    };
    "/api/v2/cards/{card_id}/close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a card
         * @description Closing a closed card answers 200 again. What the card can still spend returns to the user's wallet; fires `card.closed` with reason `manual`.
         */
        post: operations["closeCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/cards/{card_id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a card (charges are declined)
         * @description Moves the card to PAUSED and fires `card.updated`; `409 card_closed` on a closed card.
         */
        post: operations["pauseCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/cards/{card_id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume a paused card
         * @description Moves the card to ACTIVE and fires `card.updated`; `409 card_closed` on a closed card.
         */
        post: operations["resumeCard"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/cards/{card_id}/details": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Reveal the card number and CVV
         * @description Answered with `Cache-Control: no-store` and recorded in an audit log. Production cards only where the operator enabled it (`403 card_details_unavailable`).
         */
        get: operations["revealCardDetails"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's wallet (spending power) */
        get: operations["getWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List card transactions, newest first */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/transactions/{transaction_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A card transaction */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/merchant_categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The merchant category catalog (ISO 18245)
         * @description The names spending controls take beside four-digit codes. The data ships with Purser (`src/domains/cards/merchant-categories.json`, which names its source).
         */
        get: operations["listMerchantCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/spending_controls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A user's spending controls
         * @description Every list is empty until set.
         */
        get: operations["getUserSpendingControls"];
        /**
         * Set a user's spending controls (every card of the user)
         * @description Replaces them whole: a list left out is empty. Every charge on any card of the user must pass them as well as the card's own, checked before the balance (`DECLINED` with `CATEGORY_BLOCKED`, `COUNTRY_BLOCKED` or `SPENDING_LIMIT_EXCEEDED`, and `spending_control.source: "user"`).
         */
        put: operations["setUserSpendingControls"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/authorization_endpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The endpoint that decides charges in real time */
        get: operations["getAuthorizationEndpoint"];
        /**
         * Set the endpoint that decides charges in real time
         * @description Every authorization that passed the card status, the spending controls and the balance is POSTed, signed like a webhook, as `{type: "authorization.request", created, livemode, data: {authorization_id, card_id, user_id, amount_cents, currency, merchant, mcc, merchant_country, spending_controls_passed: true}}`; the endpoint answers `{approved: true}` or `{approved: false, reason?}` within `timeout_ms`. A new endpoint answers `201` with its signing secret; setting it again answers `200`, the secret kept.
         */
        put: operations["setAuthorizationEndpoint"];
        post?: never;
        /**
         * Stop deciding charges in real time
         * @description The engine alone decides again, from the next authorization on.
         */
        delete: operations["deleteAuthorizationEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/wallet_funding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test mode: add funds to a user's wallet */
        post: operations["simulateWalletFunding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: a merchant charges a card
         * @description Decided by the authorization engine: approved (`PENDING`, funds held, `transaction.authorized`) or `DECLINED` with `decline_reason`: the card's status (`CARD_CLOSED`, `CARD_PAUSED`), then the spending controls of the card and of its user (`CATEGORY_BLOCKED`, `COUNTRY_BLOCKED`, `SPENDING_LIMIT_EXCEEDED`, with `spending_control` naming the rule), then the balance (`INSUFFICIENT_FUNDS`, `SPEND_LIMIT_EXCEEDED`).
         */
        post: operations["simulateAuthorization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/clear": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: settle an authorization
         * @description Settles at `amount_cents` (default: what is still held, the authorized amount less partial voids). Less releases the rest; more is charged when the balance allows (`402 insufficient_funds` otherwise). Fires `transaction.cleared`.
         */
        post: operations["simulateClearing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/void": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: reverse an authorization
         * @description Reverses what is still held: all of it (`VOIDED`, held funds return) or, with a smaller `amount_cents`, that much (the transaction stays `PENDING` for the rest; `authorized_cents` unchanged, `voided_cents` grows). Each void fires `transaction.voided` with `released_cents` (what it released) and `held_cents` (what stays held; 0 once VOIDED). More than is held: `400 invalid_request`.
         */
        post: operations["simulateVoid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: the merchant refunds a settled charge
         * @description Gives back `amount_cents` (default: all that is left) of a settled purchase as a new `refund` transaction, SETTLED at once and linked by `original_transaction_id`: the money returns to the card while it is open, else to its owner (the wallet, or the company pool with `transfer.released`). Fires `transaction.refunded`. Never more in total than was settled.
         */
        post: operations["simulateRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/simulate/provider_close": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Test mode: the issuer closes a card upstream */
        post: operations["simulateProviderClose"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cardholders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a cardholder
         * @description Fires `cardholder.created`. Personal details are sealed at rest.
         */
        post: operations["createCardholder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cardholders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cardholder */
        get: operations["getCardholder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change a cardholder's details
         * @description Fires `cardholder.updated` naming the `updated_fields` when a detail changed.
         */
        patch: operations["updateCardholder"];
        trace?: never;
    };
    "/api/v1/cardholders/{id}/payment-method/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: whether the cardholder has a stored payment method
         * @deprecated
         * @description Deprecated (answered with `Deprecation` and `Sunset` headers): cards are funded from the wallet. A payment method is a card stored in the hosted vault; until the vault exists, none is.
         */
        get: operations["getPaymentMethodStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orgs/{orgId}/revenue-config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The share of interchange routed to users as rewards */
        get: operations["getRevenueConfig"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Set the share of interchange routed to users as rewards */
        patch: operations["updateRevenueConfig"];
        trace?: never;
    };
    "/api/v2/wallet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's company wallet */
        get: operations["getCompanyWallet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the company wallet's low-balance threshold
         * @description `wallet.balance.low` fires once each time the balance falls under the threshold (and once at once if it already is under the new one).
         */
        patch: operations["updateCompanyWallet"];
        trace?: never;
    };
    "/api/v2/simulate/company_funding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Test mode: a deposit lands in the company wallet
         * @description Fires `wallet.funded` with `tx_hash: null`.
         */
        post: operations["simulateCompanyFunding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/card_flows/{transfer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A company-funded card flow */
        get: operations["getCardFlow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet/transfers/{id}/collection_succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm collection for a company-funded card
         * @description Required when the flow was started with `ack_required`, before `ack_deadline`: the transfer is approved (`transfer.approved`, `approved_via: api`) and the flow continues. Repeating it answers the flow again.
         */
        post: operations["collectionSucceeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/wallet/transfers/{id}/collection_failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report that collection failed for a company-funded card
         * @description The transfer fails with `transfer.failed` (`reason: ack_denied`) and the reservation returns to the pool.
         */
        post: operations["collectionFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/buy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * One turn of a purchase conversation: ask, or confirm a cart hash
         * @description Send `ask` to build carts (plain words: "2 lattes from coffee"), `confirm` with a cart `hash` (or several) to place exactly those carts, `conversation_id` on follow-ups. Money moves only on a confirm. Everything the loop decides is a 200 envelope: branch on `status`. Clients should wait at least 120 seconds (spec §8). Accepts `Idempotency-Key`.
         */
        post: operations["buy"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/buy/merchants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The merchants `/buy` can place at
         * @description Sandbox merchants take sandbox money only; the others production money only.
         */
        get: operations["listBuyMerchants"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/buy/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A purchase conversation: its carts, orders and last checkout */
        get: operations["getBuyConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/buy/orders/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An order placed through `/buy` */
        get: operations["getBuyOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cardholders/{id}/buy_token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A user token for `/buy` acting for this cardholder
         * @description Lives 3600 seconds; stored as a digest. The cardholder pays from the wallet of the user it is linked to.
         */
        post: operations["createBuyToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/jwks.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The public keys that verify order receipts (JWK Set)
         * @description A receipt’s JWS header names its key (`kid`). Retired keys stay here until they expire (`RECEIPT_KEY_RETENTION_DAYS` after their retirement); a verifier that meets an unknown `kid` fetches this again, since a rotation publishes the new key as it starts signing.
         */
        get: operations["getReceiptKeys"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/orders/{id}/receipt": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The signed receipt of an order placed under a mandate
         * @description The same JWS `order.placed` carried, unless its key has since expired: then the same claims signed by the current key.
         */
        get: operations["getOrderReceipt"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/checkout/coverage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The payment processors purchases reach, and how */
        get: operations["getCheckoutCoverage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/passkeys/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a passkey reset for a user who lost their passkey
         * @description Beyond the spec (issue 29). Answers the `url` of a hosted page to give the user. There the user proves control of the email or phone on their account with a one-time code (in sandbox always `111111`), then creates a new passkey on that device; their old passkeys then stop working, every unlocked vault session locks, and `passkey.reset` fires. The link works 30 minutes; a newer reset cancels the earlier one. Accepts `Idempotency-Key`. See docs/vault.md.
         */
        post: operations["resetPasskeys"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/passkey_resets/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A passkey reset and where it stands */
        get: operations["getPasskeyReset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/checkout/vault_link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a connected vault session and send its link to the user's phone or email
         * @description The link goes to the phone on the user’s account, else the email. An organization with a dedicated branded vault (an operator setting) gets `sent: false` and the `url` to deliver itself, as does a link that no channel took, or that only reached the local outbox; `delivery` says which. Accepts `Idempotency-Key`.
         */
        post: operations["createVaultLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/mandates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A user's mandates, newest first */
        get: operations["listMandates"];
        put?: never;
        /**
         * Ask a user to sign spending terms for an app
         * @description The mandate starts `pending_approval`: give the user its `approval_url`, where they approve the terms with a passkey (registering one first if they have none). Once `active`, `/buy` confirms and MCP purchases made with a token of `client_id` within the terms need no per-purchase approval. Accepts `Idempotency-Key`.
         */
        post: operations["createMandate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/mandates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A mandate, its terms and what its budget has left */
        get: operations["getMandate"];
        put?: never;
        post?: never;
        /**
         * Revoke a mandate
         * @description No purchase passes it from then on, and `mandate.revoked` fires. Revoking a revoked mandate answers it unchanged. Accepts `Idempotency-Key`.
         */
        delete: operations["revokeMandate"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/wallet_links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a link to the user's hosted wallet
         * @description The page shows the spending power, cards (last 4 digits), recent transactions and how to add funds; with `?merchant=…&amount=…` appended, a payment approval for that amount. The organization must have wallet links enabled by the operator and, in production, an active subscription; consent must be recorded first. See docs/wallet-links.md.
         */
        post: operations["createWalletLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cardholder_onboarding_sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a hosted cardholder onboarding page
         * @description The person at `url` enters their details (a new cardholder, `cardholder.created`) or claims the cardholder this organization already has for their email by entering a code sent to it. On completion `cardholder_onboarding_session.completed` fires and the page redirects to `return_url` with `session_id` and `state` added to its query. The link works 24 hours. Accepts `Idempotency-Key`.
         */
        post: operations["createCardholderOnboardingSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/cardholder_onboarding_sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cardholder onboarding session */
        get: operations["getCardholderOnboardingSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/platform_connect_sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a hosted page where a company connects its organization
         * @description A member of the company signs in on the page with a code sent to their email and connects an organization they own, or creates one. Then `platform_connect_session.completed` fires (it never carries credentials) and the page returns to `return_url` with `session_id` and `state` added. The link works one hour. Accepts `Idempotency-Key`. See docs/platform-connect.md.
         */
        post: operations["createPlatformConnectSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/platform_connect_sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A platform connect session */
        get: operations["getPlatformConnectSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/connected_organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Organizations connected to the platform
         * @description Newest first. A connection is per mode: the token’s mode lists its own.
         */
        get: operations["listConnectedOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/provider/oauth/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start connecting the organization's messaging provider: a consent URL for the operator
         * @description OAuth 2.0 authorization code with PKCE (S256). Open `url` in a browser; after consent the provider redirects to the callback, which stores the connection for the calling organization and mode. `state` is single-use and expires at `expires_at`. Takes no body. Accepts `Idempotency-Key`.
         */
        post: operations["startMessagingOAuth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/provider/oauth/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The redirect target of the provider (browser); authenticated by `state`
         * @description Consumes `state` (single-use, bound to the organization and mode that started), exchanges `code` at the provider's token endpoint with the PKCE verifier, and stores the tokens sealed. Answers a page; a client sending `Accept: application/json` only gets JSON instead (the connection, or the error body).
         */
        get: operations["messagingOAuthCallback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/provider/connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's messaging-provider connection */
        get: operations["getMessagingConnection"];
        put?: never;
        post?: never;
        /**
         * Disconnect: revoke the grant at the provider and forget the tokens
         * @description RFC 7009 revocation of the refresh and access tokens, then the connection is deleted. If the provider cannot be reached, nothing changes (`502 messaging_provider_error`): retry. Accepts `Idempotency-Key`.
         */
        delete: operations["deleteMessagingConnection"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/merchant_links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a hosted page where the user links their account at a merchant
         * @description For a configured merchant that declares account linking (OAuth 2.0 authorization code with PKCE at the merchant; ACP itself has none). The page sends the cardholder to the merchant to sign in and approve; then the account is linked, `merchant.connected` fires (production only: live activity) and the page returns to `return_url` with `session_id` (and `state`), or with `error=access_denied` when the cardholder declined. The link works one hour. Accepts `Idempotency-Key`. See docs/merchant-accounts.md.
         */
        post: operations["createMerchantLinkSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/merchant_link_sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A merchant link session */
        get: operations["getMerchantLinkSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v2/users/{user_id}/merchant_accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The merchant accounts a user linked
         * @description Oldest first, one per merchant, in the token’s mode. Never the merchant’s tokens.
         */
        get: operations["listMerchantAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/buy/merchants/{slug}/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Order events from a configured ACP merchant (Merchant-Signature signed)
         * @description The merchant posts `order_create` and `order_update` events for orders Purser placed with it, signed with the webhook secret given to `purser merchant add --webhook-secret`.
         */
        post: operations["receiveMerchantOrderEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * MCP tool server (Streamable HTTP, stateless)
         * @description JSON-RPC 2.0 messages of the Model Context Protocol (`initialize`, `tools/list`, `tools/call`, …), answered as `application/json`. Bearer: a connection access token (connect verify) or an OAuth access token for the resource `http://localhost:3000/mcp`. Send `Accept: application/json, text/event-stream` (else `406`); a body that is not JSON-RPC is `400`; both answer a JSON-RPC error. Tool failures are tool results with `isError: true`. See docs/mcp-tools.md for the tools.
         */
        post: operations["mcpMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-authorization-server": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Authorization server metadata (RFC 8414) */
        get: operations["getAuthorizationServerMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/.well-known/oauth-protected-resource/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Protected resource metadata of the tool server (RFC 9728)
         * @description Also served at /.well-known/oauth-protected-resource.
         */
        get: operations["getProtectedResourceMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start the user-facing authorization (browser)
         * @description RFC 6749 §4.1.1 with PKCE S256 and `resource`. Shows the hosted sign-in page; after the user signs in with a one-time code and approves, redirects to `redirect_uri` with `code`, `state` and `iss`. An unknown client or unregistered redirect URI shows an error page and never redirects; other errors redirect with `error`, `error_description`, `state` and `iss`.
         */
        get: operations["authorize"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange an authorization code or a refresh token (user-facing OAuth)
         * @description Form-encoded. `authorization_code` with `code`, `redirect_uri`, `code_verifier` and `resource`; `refresh_token` with `refresh_token` and `resource`. Confidential clients authenticate with `client_secret_post` or `client_secret_basic`; public clients send only `client_id`.
         */
        post: operations["exchangeUserToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a public client (RFC 7591 dynamic client registration)
         * @description JSON. Registers a public client (`token_endpoint_auth_method` is always `none`: a requested secret-based method is replaced, RFC 7591 §3.2.1) in the organization and mode set by `OAUTH_REGISTRATION`. Clients may instead use an https Client ID Metadata Document as `client_id` (at most 5120 bytes).
         */
        post: operations["registerClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke a user access or refresh token (RFC 7009)
         * @description Form-encoded `token` (and optional `token_type_hint`), with the same client authentication as the token endpoint. Revokes the whole grant: both tokens. Unknown tokens also answer 200.
         */
        post: operations["revokeUserToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description The body of every v2 error. */
        ErrorBody: {
            error: {
                /** @description Stable, machine-readable; listed at /docs/errors. */
                code: string;
                /** @description For developers; may change. */
                message: string;
                /** @description Link to the code in the error catalogue. */
                docs: string;
                /** @description Field → what is wrong with it; empty when no field is at fault. */
                field_errors: {
                    [key: string]: string;
                };
                warnings: string[];
                /** @description Only with `user_info_required` (wallet links): what must be recorded first, e.g. `consent`. */
                missing_fields?: string[];
            };
        };
        /** @description A platform access token (RFC 6749 §5.1). */
        TokenResponse: {
            access_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
            /** @enum {string} */
            scope: "api";
        };
        /** @description The error body of the token endpoint (RFC 6749 §5.2). */
        OAuthErrorBody: {
            error: string;
            error_description: string;
        };
        /** @description Who the calling platform token acts for. */
        Introspection: {
            /** @enum {string} */
            object: "api_v2";
            organization_id: string;
            test_mode: boolean;
            /**
             * @deprecated
             * @enum {unknown}
             */
            mode: "sandbox" | "production";
        };
        /** @description A one-time code sent to a user, waiting to be verified. */
        ConnectAttempt: {
            /** @enum {string} */
            object: "connect_attempt";
            /** @description Pass back as `connect_id` at verify. */
            id: string;
            /** @enum {unknown} */
            channel: "email" | "phone";
            /** Format: date-time */
            expires_at: string;
        };
        /** @description A user's connection to the calling client, with its tokens. */
        Connection: {
            /** @enum {string} */
            object: "connection";
            access_token: string;
            refresh_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
            user?: {
                id: string;
                email: string | null;
                phone: string | null;
            };
        };
        /** @description The user's recorded consent (one per user). */
        Consent: {
            /** @enum {string} */
            object: "consent";
            id: string;
            user_id: string;
            terms_version: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description The origins allowed to frame hosted pages, for the calling mode. */
        EmbedOrigins: {
            /** @enum {string} */
            object: "embed_origins";
            origins: string[];
        };
        /** @description An event, as delivered to webhooks and listed by the events API. */
        Event: {
            /** @description Stable id, `evt_…`; dedupe on it. */
            id: string;
            /** @description The event type, one of the catalog (new types are added over time): `card.created`, `card.updated`, `card.closed`, `cardholder.created`, `cardholder.updated`, `cardholder_onboarding_session.completed`, `platform_connect_session.completed`, `balance.low`, `transaction.authorized`, `transaction.cleared`, `transaction.declined`, `transaction.voided`, `transaction.refunded`, `merchant.connected`, `reward.earned`, `card_flow.started`, `card_flow.failed`, `transfer.approved`, `transfer.initiated`, `transfer.completed`, `transfer.failed`, `transfer.released`, `wallet.funded`, `wallet.balance.low`, `identity.verification.updated`, `order.placed`, `order.confirmed`, `order.updated`, `checkout_authorization.approved`, `checkout_authorization.declined`, `checkout_authorization.expired`, `passkey.reset`, `mandate.approved`, `mandate.revoked`, `mandate.exhausted`, `mandate.expired`, `webhook_endpoint.test`. */
            type: string;
            /** @description Unix epoch seconds. */
            created: number;
            livemode: boolean;
            /** @description Depends on `type`. */
            data: {
                [key: string]: unknown;
            };
        };
        /** @description Where and which events are delivered. */
        WebhookEndpoint: {
            /** @enum {string} */
            object: "webhook_endpoint";
            /** @description `wh_…` */
            id: string;
            url: string;
            description: string | null;
            enabled_events: string[];
            status: "active" | "disabled";
            livemode: boolean;
            /** @description How deliveries are signed (docs/webhooks.md): `purser` (the default) sends the spec's `Service-Signature` (and the legacy `X-Service-Signature`); `standard_webhooks` sends Standard Webhooks' `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>` keyed with the base64 part of the secret), for any Standard Webhooks library to verify. */
            signature_scheme: "purser" | "standard_webhooks";
            /** @description Consecutive failed attempts since the last success. */
            failure_count: number;
            disabled_at: number | null;
            created: number;
            /** @description The `whsec_…` signing secret: only in the create and roll_secret answers. */
            secret?: string;
        };
        /** @description One event owed to one endpoint, with its attempts. */
        WebhookDelivery: {
            /** @enum {string} */
            object: "webhook_delivery";
            /** @description `whd_…` */
            id: string;
            endpoint_id: string;
            event_id: string;
            event_type: string | null;
            status: "pending" | "succeeded" | "failed" | "cancelled";
            attempt_count: number;
            next_attempt_at: number | null;
            last_status_code: number | null;
            last_error: string | null;
            created: number;
            completed_at: number | null;
            attempts: {
                attempt: number;
                attempted_at: number;
                status_code: number | null;
                duration_ms: number;
                succeeded: boolean;
                /** @description `unknown`: the worker making the attempt stopped (a crash, a lost database) before it recorded an answer; the receiver may have received it. The next attempt has the next number. */
                outcome: "succeeded" | "failed" | "unknown";
                error: string | null;
                /** @description First 1 KB of the answer; always null for a private (loopback, private or link-local) destination. */
                response_excerpt: string | null;
            }[];
        };
        /** @description A page of events, newest first. */
        EventList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Event"][];
            has_more: boolean;
        };
        /** @description A page of webhook endpoints, newest first. */
        WebhookEndpointList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["WebhookEndpoint"][];
            has_more: boolean;
        };
        /** @description A page of webhook deliveries, newest first. */
        WebhookDeliveryList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["WebhookDelivery"][];
            has_more: boolean;
        };
        /** @description What a recover queued. */
        WebhookRecovery: {
            /** @enum {string} */
            object: "webhook_recovery";
            endpoint_id: string;
            since: number;
            /** @description How many events were queued for the endpoint again. */
            recovered: number;
        };
        /** @description The KYC state: the single status contract of every KYC answer. */
        KycState: {
            /** @enum {string} */
            object: "kyc";
            status: "awaiting_documents" | "needs_information" | "requires_verification" | "pending" | "approved" | "rejected";
            /** @description Only on needs_information: exactly the fields to submit. */
            required_fields?: string[];
            /** @description On awaiting_documents, needs_information and requires_verification: the hosted page. Polls return the same URL while it is valid (a new one, retiring it, once a third of its lifetime is left); only the newest works. Embed with allow="camera; microphone". */
            iframe_url?: string;
            /** @description On uploads: user-safe photo feedback. */
            warnings?: string[];
            /** @description What the reader pulled from this image; keys appear as they become readable. */
            extracted?: {
                first_name?: string;
                last_name?: string;
                /** @description YYYY-MM-DD */
                date_of_birth?: string;
                address_line1?: string;
                address_city?: string;
                address_region?: string;
                address_postal_code?: string;
                address_country?: string;
                document_type?: string;
                issuing_country?: string;
                /** @description The document’s own number; never a national id number: do not prefill it. */
                document_number?: string;
            };
            /** @description End-user-safe; may be shown verbatim. */
            reason?: string;
        };
        /** @description The queue, oldest first; `starting_after` pages on. */
        KycReviewList: {
            /** @enum {string} */
            object: "list";
            data: {
                /** @enum {string} */
                object: "kyc_review";
                id: string;
                organization_id: string;
                user_id: string;
                status: string;
                document_type: string | null;
                issuing_country: string | null;
                extracted: {
                    [key: string]: string;
                };
                information: {
                    [key: string]: string;
                };
                national_id_submitted: boolean;
                face_scan_at: string | null;
                submitted_at: string | null;
            }[];
            has_more: boolean;
        };
        /** @description Where and how much a card (or all cards of a user) may spend. */
        SpendingControls: {
            allowed_categories: string[];
            blocked_categories: string[];
            allowed_merchant_countries: string[];
            blocked_merchant_countries: string[];
            spending_limits: {
                amount_cents: number;
                /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                categories?: string[];
            }[];
        };
        /** @description A user's spending controls: every card of the user obeys them. */
        UserSpendingControls: {
            /** @enum {string} */
            object: "spending_controls";
            user_id: string;
            allowed_categories: string[];
            blocked_categories: string[];
            allowed_merchant_countries: string[];
            blocked_merchant_countries: string[];
            spending_limits: {
                amount_cents: number;
                /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                categories?: string[];
            }[];
        };
        /** @description A prepaid card; its balance is what it can still spend. */
        Card: {
            /** @enum {string} */
            object: "card";
            id: string;
            user_id: string;
            cardholder_id: string;
            type: "single_use" | "multi_use";
            last4: string;
            /** @description MM/YY */
            expiry: string;
            status: "ACTIVE" | "PAUSED" | "CLOSED";
            spend_limit_cents: number;
            balance_cents: number;
            created_at: string;
            closed_reason: string | null;
            spending_controls: components["schemas"]["SpendingControls"];
        };
        /** @description A card transaction, as the network moved it. */
        Transaction: {
            /** @enum {string} */
            object: "transaction";
            id: string;
            /** @description A charge, or money a merchant gave back for one (`refund`, SETTLED at once) */
            type: "purchase" | "refund";
            card_id: string;
            user_id: string;
            last4: string;
            status: "PENDING" | "SETTLED" | "VOIDED" | "DECLINED";
            /** @description While PENDING, what is still authorized (less what partial voids released); the settled amount once SETTLED (a refund: what it gave back); else the authorized amount */
            amount_cents: number;
            /** @description As authorized (an incremental authorization raises it; a void never lowers it) */
            authorized_cents: number;
            /** @description What voids released of the authorization, in all (partial voids, the void of the rest, expiry) */
            voided_cents: number;
            /** @description Of a purchase: what its refunds gave back so far, never more than it settled */
            refunded_cents: number;
            /** @description Of a refund: the purchase it gives money back for */
            original_transaction_id: string | null;
            /** @description The issuer settled it without an authorization the books held (a force post); charged to the card, else its owner (docs/cards.md, Lithic) */
            force_posted: boolean;
            merchant: string;
            mcc: string | null;
            /** @description ISO 3166-1 alpha-2, when the network said */
            merchant_country: string | null;
            decline_reason: string | null;
            /** @description The spending control that declined the transaction (null otherwise) */
            spending_control: {
                /** @description `mandate`: the spending mandate the card is held to (`decline_reason` `MANDATE_EXCEEDED`) */
                source: "card" | "user" | "mandate";
                /** @description The list of the controls, or the term of the mandate, that refused the charge */
                rule: "allowed_categories" | "blocked_categories" | "allowed_merchant_countries" | "blocked_merchant_countries" | "spending_limits" | "status" | "expires_at" | "currency" | "max_amount_cents" | "allowed_merchants" | "budget";
                /** @description Of a mandate’s refusal: the mandate */
                mandate_id?: string;
                /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                interval?: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                limit_cents?: number;
                /** @description What the window had spent before this charge */
                spent_cents?: number;
            } | null;
            /**
             * @description Who decided the authorization: the engine, the platform (its authorization endpoint), or the endpoint's `on_timeout` when it did not answer in time; null when none was decided (refunds, force posts)
             * @enum {string|null}
             */
            authorization_decided_by: "engine" | "platform" | "timeout" | null;
            /** @description The platform's own reason for its decline (`PLATFORM_DECLINED`) */
            platform_reason: string | null;
            created_at: string;
            updated_at: string;
        };
        /** @description A user's spending power. */
        Wallet: {
            /** @enum {string} */
            object: "wallet";
            user_id: string;
            balance_cents: number;
            pending_cents: number;
            /** @enum {string} */
            currency: "usd";
            test_mode: boolean;
        };
        /** @description A page, newest first; pass the last id as `starting_after` for the next page. */
        CardList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Card"][];
            has_more: boolean;
        };
        /** @description A page, newest first; pass the last id as `starting_after` for the next page. */
        TransactionList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Transaction"][];
            has_more: boolean;
        };
        /** @description The person cards are issued to. */
        Cardholder: {
            /** @enum {string} */
            object: "cardholder";
            id: string;
            /** @description Null when not known (made from a verification) */
            first_name: string | null;
            /** @description Null when not known (made from a verification) */
            last_name: string | null;
            email: string | null;
            date_of_birth: string | null;
            phone_number: string | null;
            external_user_id: string | null;
            user_id: string | null;
            created_at: string;
            updated_at: string;
        };
        /** @description The organization's pool for company-funded cards, in this mode. */
        CompanyWallet: {
            /** @enum {string} */
            object: "company_wallet";
            /** @description What the pool can still fund (reserved money excluded) */
            balance_cents: number;
            /** @description Held for company-funded card flows in progress */
            reserved_cents: number;
            /** @description Where on-chain deposits go (production with CHAIN=evm; the pool also pays transfers from it); null offline and in sandbox */
            deposit_address: string | null;
            low_balance_threshold_cents: number;
            test_mode: boolean;
        };
        /** @description A company-funded card flow: the transfer from the company pool and the card it ends in. */
        CardFlow: {
            /** @enum {string} */
            object: "card_flow";
            transfer_id: string;
            status: "awaiting_collection" | "started" | "approved" | "initiated" | "completed" | "card_created" | "failed" | "card_failed";
            user_id: string;
            cardholder_id: string;
            external_user_id: string | null;
            type: "single_use" | "multi_use";
            /** @description The card's amount */
            amount_cents: number;
            /** @description The organization's fee, from the pool */
            fee_cents: number;
            /** @description What moves from the pool: the amount less what was netted */
            transfer_cents: number;
            /** @description Funds released to the user by an earlier failed card, used first */
            netted_cents: number;
            ack_required: boolean;
            /** @description ISO 8601; only with ack_required */
            ack_deadline: string | null;
            approved_via: "api" | "auto" | null;
            /** @description Null offline (sandbox) and for a fully netted transfer */
            tx_hash: string | null;
            failure_reason: string | null;
            /** @description Set once the card is created */
            card_id: string | null;
            test_mode: boolean;
            created_at: string;
            updated_at: string;
        };
        /** @description A cart at one merchant at one price (spec §2 Cart object, plus currency and expiry). */
        Cart: {
            /** @description Rail id, e.g. `retail` */
            merchant: string;
            merchant_name: string;
            items: {
                name: string;
                qty: number;
                priceCents: number;
                product_id: string;
            }[];
            serviceFeesCents: number;
            tipCents: number;
            /** @description Tax as the merchant states it, inside `totalCents`; null while it finalizes after the confirm */
            taxCents: number | null;
            /** @description Shipping as the merchant states it, inside `totalCents`; null while it finalizes after the confirm */
            shippingCents: number | null;
            /** @description All-in total the user approves */
            totalCents: number;
            /** @description Most a confirm may authorize when tax and shipping finalize later */
            approvedCeilingCents: number | null;
            /** @description base64url SHA-256 of the JCS of the priced cart; echo it in `confirm` */
            hash: string;
            /** @description ISO 4217, lowercase */
            currency: string;
            /** @description After this the cart is no longer confirmable */
            expires_at: string;
        };
        /** @description Every 200 of `POST /buy` (spec §2): each field present, null when empty. */
        PurchaseEnvelope: {
            conversation_id: string;
            status: "needs_input" | "order_placed" | "partially_placed" | "declined";
            reply: string;
            /** @description The reply split into chat bubbles */
            messages: string[];
            cart: components["schemas"]["Cart"] | null;
            carts: components["schemas"]["Cart"][];
            catalog: {
                as_of: string;
                query: string;
                merchant: string | null;
                items: {
                    product_id: string;
                    name: string;
                    priceCents: number;
                    currency: string;
                    in_stock: boolean;
                }[];
            } | null;
            unmatched: {
                merchant: string | null;
                requested: string;
                reason: string;
                detail: string;
                at: string;
            }[];
            order_id: string | null;
            payment_source: {
                source: string;
                brand: string;
                last4: string;
            } | null;
            decline_code: string | null;
            /** @description A confirm paused for the user's approval (`decline_code` `vault_approval_required` or `byoc_approval_required`): the page where the user approves or declines with their passkey; give it to the user. See docs/purchases.md#approvals. */
            approval_url: string | null;
            charge_status: ("none" | "confirming" | "settled" | "unknown") | null;
            placements: {
                merchant: string;
                hash: string;
                status: "placed" | "declined";
                order_id: string | null;
                decline_code: string | null;
                charge_status: "none" | "confirming" | "settled" | "unknown";
            }[] | null;
            error_code: string | null;
        };
        /** @description One confirmed cart and its charge. */
        Order: {
            /** @enum {string} */
            object: "order";
            id: string;
            conversation_id: string;
            status: "pending" | "placed" | "confirmed" | "failed";
            merchant: string;
            merchant_name: string;
            items: {
                name: string;
                qty: number;
                priceCents: number;
                product_id: string;
            }[];
            /** @description The final amount once placed, else the cart total */
            total_cents: number;
            /** @description What the confirm authorized (the ceiling or the total) */
            approved_cents: number;
            currency: string;
            charge_status: "none" | "confirming" | "settled" | "unknown";
            /** @description Where the goods are, as the merchant reports: `unfulfilled` once placed, then `processing`, `shipped`, `completed` (delivered) or `canceled`; null while pending or after a failure (docs/purchases.md). */
            fulfillment_status: ("unfulfilled" | "processing" | "shipped" | "completed" | "canceled") | null;
            decline_code: string | null;
            card_id: string | null;
            merchant_order_id: string | null;
            placed_at: string | null;
            confirmed_at: string | null;
            created_at: string;
        };
        /** @description A `/buy` conversation, to reconcile a confirm whose answer was lost. */
        Conversation: {
            /** @enum {string} */
            object: "conversation";
            id: string;
            status: string;
            turn_in_progress: boolean;
            carts: components["schemas"]["Cart"][];
            orders: {
                order_id: string;
                status: string;
                merchant: string;
                merchant_name: string;
                total_cents: number;
                charge_status: string;
                /** @description Where the goods are, as the merchant reports: `unfulfilled` once placed, then `processing`, `shipped`, `completed` (delivered) or `canceled`; null while pending or after a failure (docs/purchases.md). */
                fulfillment_status: ("unfulfilled" | "processing" | "shipped" | "completed" | "canceled") | null;
                placed_at: string | null;
            }[];
            last_checkout: {
                at: string;
                hashes: string[];
                status: string;
                order_id: string | null;
                decline_code: string | null;
                charge_status: string | null;
                placements: {
                    merchant: string;
                    hash: string;
                    status: "placed" | "declined";
                    order_id: string | null;
                    decline_code: string | null;
                    charge_status: "none" | "confirming" | "settled" | "unknown";
                }[] | null;
            } | null;
            messages: {
                role: "user" | "assistant";
                text: string;
                at: string;
            }[];
        };
        /** @description The keys that verify receipts (RFC 7517 JWK Set): the one that signs now, then retired ones until they expire. */
        ReceiptJwks: {
            keys: {
                /** @enum {string} */
                kty: "EC";
                /** @enum {string} */
                crv: "P-256";
                x: string;
                y: string;
                /** @description The key’s JWK thumbprint (RFC 7638, SHA-256); a receipt’s header names it */
                kid: string;
                /** @enum {string} */
                alg: "ES256";
                /** @enum {string} */
                use: "sig";
            }[];
        };
        /** @description The signed receipt of an order placed under a mandate. Verify `jws` against the published keys; `claims` is its payload, for reading only. */
        Receipt: {
            /** @enum {string} */
            object: "receipt";
            order_id: string;
            mandate_id: string;
            /** @description The key that signed it, in `/.well-known/jwks.json` */
            kid: string;
            /** @description Compact JWS (RFC 7515), ES256, over `claims` */
            jws: string;
            /** @description What the receipt states: its JWS payload, decoded. */
            claims: {
                mandate_id: string;
                /** @description The mandate’s `terms_hash`: SHA-256 of its RFC 8785 terms, hex */
                terms_hash: string;
                /** @description The confirmed cart’s hash */
                cart_hash: string;
                order_id: string;
                /** @description What was charged */
                amount_cents: number;
                currency: string;
                merchant: string;
                /** @description ISO 8601 */
                placed_at: string;
            };
        };
        /** @description Which payment processors purchases reach, and how. Recognition of a processor is not a purchase test: each merchant and browser combination needs end-to-end validation. */
        CheckoutCoverage: {
            /** @enum {string} */
            object: "checkout_coverage";
            integration: string;
            merchant_confirmation_required: boolean;
            validation: string;
            processors: {
                /** @description The payment processor */
                psp: string;
                mode: string;
                /** @description HTTP methods */
                methods: string[];
                hosts: string[];
                /** @description e.g. `not_supported` */
                client_side_encryption: string;
                /** @description e.g. `merchant_browser` */
                challenge_surface: string;
                outcome: string;
                request_flows: {
                    flow: string;
                    coverage: string;
                    amount_authority: string;
                }[];
                limitations: string[];
            }[];
        };
        /** @description A connected vault session for one user (spec §2 Vault link). */
        VaultLink: {
            /** @enum {string} */
            object: "vault_link";
            /** @description True only when a messaging provider, an SMS service or a mail server took the link; false on a branded vault, and when it failed or only reached the local outbox */
            sent: boolean;
            /** @description What happened to the link: `provider` (the organization's messaging provider sent it), `sms` or `email` (the configured SMS service or mail server took it), `outbox` (no service is configured for this mode: it only reached the local outbox, as in sandbox by default), `failed` (every channel failed); null when nothing was tried (a branded vault) */
            delivery: ("provider" | "sms" | "email" | "outbox" | "failed") | null;
            user: string;
            /** @description Present when `sent` is false: the platform delivers it */
            url?: string;
        };
        /** @description A reset of a user's passkeys (beyond the spec, issue 29; docs/vault.md "Passkey recovery"). */
        PasskeyReset: {
            /** @enum {string} */
            object: "passkey_reset";
            /** @description `pkr_…` */
            id: string;
            user_id: string;
            /** @description `pending` (the user has not proven a code yet), `verified` (the code was right: the user is creating the new passkey), `completed` (the new passkey is the only one), `canceled` (a newer reset replaced it), `locked` (five wrong codes), `expired` (not completed within 30 minutes) */
            status: "pending" | "verified" | "completed" | "canceled" | "locked" | "expired";
            /** @description Where the user asked for the code; null until they did. */
            channel: ("email" | "phone") | null;
            /** @description The hosted reset page, for the platform to give the user (only in the answer that created the reset). Safe to send as text: opening it changes nothing; the user proves their email or phone there. */
            url?: string;
            /** @description ISO 8601; 30 minutes after creation */
            expires_at: string;
            /** @description ISO 8601 */
            completed_at: string | null;
            test_mode: boolean;
        };
        /** @description The terms as stored and signed: every field present, an absent optional one null, `expires_at` in UTC, repeats left out. */
        MandateTerms: {
            client_id: string;
            description: string;
            /** @enum {string} */
            currency: "usd";
            max_amount_cents: number;
            budget: {
                /** @description What the purchases may spend in each interval, in cents */
                amount_cents: number;
                /** @description `daily`, `weekly` (ISO weeks, from Monday) and `monthly` are UTC calendar windows; `total` is the whole life of the mandate */
                interval: "daily" | "weekly" | "monthly" | "total";
            };
            /** @description Four-digit merchant category codes or category names of GET /api/v2/merchant_categories; null: every category */
            allowed_categories: string[] | null;
            /** @description Merchant slugs (as `/buy` names them); null: every merchant */
            allowed_merchants: string[] | null;
            /** @description ISO 8601, UTC */
            expires_at: string;
        };
        /** @description A spending mandate (issue 28; docs/mandates.md). */
        Mandate: {
            /** @enum {string} */
            object: "mandate";
            /** @description `mdt_…` */
            id: string;
            /** @description `pending_approval` (waiting for the user’s passkey), `active` (purchases within the terms need no approval), `exhausted` (a `total` budget is used up; a refund reopens it), `expired` (past `expires_at`), `revoked` */
            status: "pending_approval" | "active" | "exhausted" | "expired" | "revoked";
            /** @description The hosted page where the user reads the terms and approves them with a passkey (or declines them); null once not pending, and once the page has expired (7 days after the mandate was created, or at `expires_at` if sooner). Safe to send as text: opening it changes nothing. */
            approval_url: string | null;
            /** @description Lowercase hex SHA-256 of the RFC 8785 canonical JSON of `terms`: what the passkey signed */
            terms_hash: string;
            terms: components["schemas"]["MandateTerms"];
            /** @description What purchases spent in the current budget interval (refunds given back) */
            spent_cents: number;
            /** @description What the current budget interval has left */
            remaining_cents: number;
            /** @description ISO 8601 */
            created_at: string;
            /** @description ISO 8601 */
            approved_at: string | null;
            /** @description ISO 8601 */
            expires_at: string;
        };
        /** @description A page, newest first; pass the last id as `starting_after` for the next page. */
        MandateList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["Mandate"][];
            has_more: boolean;
        };
        /** @description A link to the user's hosted wallet page (spec §2 Wallet link). */
        WalletLink: {
            /** @enum {string} */
            object: "wallet_link";
            id: string;
            user_id: string;
            /** @enum {string} */
            status: "active";
            /** @description The hosted wallet page. Safe to send as text: opening it (a link-preview fetch included) changes nothing. Append `merchant` and `amount` (integer cents) query parameters to ask the user to approve a payment. */
            url: string;
            /** @description ISO 8601 */
            expires_at: string;
            test_mode: boolean;
            /** @description What happened to the link: `provider` (the organization's messaging provider sent it), `sms` or `email` (the configured SMS service or mail server took it), `outbox` (no service is configured for this mode: it only reached the local outbox, as in sandbox by default), `failed` (every channel failed); null when nothing was tried (the request did not ask for `send`: the platform delivers the `url`) */
            delivery: ("provider" | "sms" | "email" | "outbox" | "failed") | null;
        };
        /** @description A hosted page where a person becomes (or claims) a cardholder of the organization. */
        CardholderOnboardingSession: {
            /** @enum {string} */
            object: "cardholder_onboarding_session";
            id: string;
            /** @description The hosted page, while the session is open; null after */
            url: string | null;
            status: "open" | "completed" | "expired";
            external_user_id: string;
            email: string | null;
            /** @description The opaque value given at creation, echoed back */
            state: string | null;
            return_url: string;
            /** @description Set on completion */
            cardholder_id: string | null;
            claimed_existing_cardholder: boolean;
            livemode: boolean;
            expires_at: string;
            completed_at: string | null;
            created_at: string;
        };
        /** @description A hosted page where a company connects its organization to the platform. */
        PlatformConnectSession: {
            /** @enum {string} */
            object: "platform_connect_session";
            id: string;
            /** @description The hosted page, while the session is open; null after */
            url: string | null;
            status: "open" | "completed" | "expired";
            /** @description The opaque value given at creation, echoed back */
            state: string | null;
            return_url: string;
            /** @description Set on completion */
            connected_organization_id: string | null;
            livemode: boolean;
            expires_at: string;
            completed_at: string | null;
            created_at: string;
        };
        ConnectedOrganization: {
            /** @enum {string} */
            object: "connected_organization";
            /** @description The connected organization */
            id: string;
            name: string;
            /** @description The platform connect session that made the connection */
            session_id: string;
            livemode: boolean;
            connected_at: string;
        };
        /** @description A page, newest first; pass the last id as `starting_after` for the next page. */
        ConnectedOrganizationList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["ConnectedOrganization"][];
            has_more: boolean;
        };
        /** @description An authorization request at the messaging provider (OAuth 2.0 + PKCE). */
        MessagingOAuth: {
            /** @enum {string} */
            object: "messaging_oauth";
            /** @description The provider's consent page: open it in the operator's browser. */
            url: string;
            /** @description Single-use; binds the callback to this organization and mode. */
            state: string;
            /** @description ISO 8601: the consent must be given before this. */
            expires_at: string;
        };
        /** @description The organization's messaging-provider connection (spec §2 Messaging-provider connection). */
        MessagingConnection: {
            /** @enum {string} */
            object: "messaging_connection";
            /**
             * @description Always true; a missing connection is 404.
             * @enum {boolean}
             */
            connected: true;
            /** @description Provider organizations covered by the install. */
            provider_organization_ids: string[];
            /** @description Granted scopes; sending needs `messages:send`. */
            scopes: string[];
            /** @description ISO 8601; the service refreshes the token before then. */
            token_expires_at: string | null;
            created_at: string;
            updated_at: string;
        };
        /** @description A hosted page where a cardholder links their account at a merchant (OAuth 2.0 at the merchant). */
        MerchantLinkSession: {
            /** @enum {string} */
            object: "merchant_link_session";
            id: string;
            /** @description The hosted page, while the session is open; null after */
            url: string | null;
            status: "open" | "completed" | "expired";
            user_id: string;
            /** @description The merchant’s slug */
            merchant: string;
            /** @description The opaque value given at creation, echoed back */
            state: string | null;
            return_url: string;
            /** @description The linked account, once completed */
            merchant_account_id: string | null;
            livemode: boolean;
            expires_at: string;
            completed_at: string | null;
            created_at: string;
        };
        /** @description A merchant account a cardholder linked. Never its tokens. */
        MerchantAccount: {
            /** @enum {string} */
            object: "merchant_account";
            id: string;
            user_id: string;
            /** @description The merchant’s slug */
            merchant: string;
            /** @description The merchant’s id of the account */
            merchant_account_ref: string;
            /** @description What the merchant granted */
            scopes: string[];
            livemode: boolean;
            connected_at: string;
            /** @description The latest link (a cardholder may link again) */
            updated_at: string;
        };
        MerchantAccountList: {
            /** @enum {string} */
            object: "list";
            data: components["schemas"]["MerchantAccount"][];
            has_more: boolean;
        };
        /** @description A user token pair for the tool server (RFC 6749 §5.1). */
        OAuthTokenPair: {
            access_token: string;
            refresh_token: string;
            /** @enum {string} */
            token_type: "Bearer";
            expires_in: number;
            scope: string;
        };
        /** @description RFC 8414 authorization server metadata. */
        AuthorizationServerMetadata: {
            issuer: string;
            authorization_endpoint: string;
            token_endpoint: string;
            registration_endpoint?: string;
            revocation_endpoint: string;
            scopes_supported: string[];
            response_types_supported: string[];
            response_modes_supported: string[];
            grant_types_supported: string[];
            token_endpoint_auth_methods_supported: string[];
            revocation_endpoint_auth_methods_supported: string[];
            code_challenge_methods_supported: string[];
            authorization_response_iss_parameter_supported: boolean;
            client_id_metadata_document_supported: boolean;
            service_documentation: string;
        };
        /** @description RFC 9728 protected resource metadata of the tool server. */
        ProtectedResourceMetadata: {
            resource: string;
            authorization_servers: string[];
            scopes_supported: string[];
            bearer_methods_supported: string[];
            resource_name: string;
            resource_documentation: string;
        };
        /** @description A registered public client (RFC 7591 §3.2.1). */
        ClientRegistration: {
            client_id: string;
            client_id_issued_at: number;
            client_name: string;
            redirect_uris: string[];
            grant_types: string[];
            response_types: string[];
            /** @enum {string} */
            token_endpoint_auth_method: "none";
            scope: string;
        };
    };
    responses: never;
    parameters: {
        /**
         * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
         * @example order-4711-attempt-1
         */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createPlatformToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "client_credentials",
                 *       "client_id": "cli_3kTg7xQm2vN8pR4w",
                 *       "client_secret": "cs_test_9fJ2kL7qW4xZ8mN3bV6cT1yH5gD0sA2e"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /** @description Only `client_credentials`. */
                    grant_type: string;
                    client_id?: string;
                    client_secret?: string;
                };
                /**
                 * @example {
                 *       "grant_type": "client_credentials",
                 *       "client_id": "cli_3kTg7xQm2vN8pR4w",
                 *       "client_secret": "cs_test_9fJ2kL7qW4xZ8mN3bV6cT1yH5gD0sA2e"
                 *     }
                 */
                "application/json": {
                    /** @description Only `client_credentials`. */
                    grant_type: string;
                    client_id?: string;
                    client_secret?: string;
                };
            };
        };
        responses: {
            /** @description The token; send it as `Authorization: Bearer …`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "pat_Xy7kQ2mN9vB4wL6tR8sJ3hF5gD1cZ0aE",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "scope": "api"
                     *     }
                     */
                    "application/json": components["schemas"]["TokenResponse"];
                };
            };
            /** @description The request is malformed (`invalid_request`), the grant is not `client_credentials` (`unsupported_grant_type`), or the client is public (`unauthorized_client`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_grant_type",
                     *       "error_description": "Only the client_credentials grant is supported."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Unknown or revoked client, or a wrong or missing secret (`invalid_client`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Client authentication failed."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "access_denied",
                     *       "error_description": "The organization is suspended."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "payload_too_large",
                     *       "error_description": "The request body is too large."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_media_type",
                     *       "error_description": "Send the body as application/json."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Too many token requests from this IP (`rate_limited`); retry after `Retry-After` seconds. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate_limited",
                     *       "error_description": "Too many token requests; retry later."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
        };
    };
    introspectCredential: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization and mode the token acts for. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "api_v2",
                     *       "organization_id": "org_5bHn2QwE8rT4yU7i",
                     *       "test_mode": true,
                     *       "mode": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["Introspection"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createConnectAttempt: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "email": "ada@example.com",
                 *       "external_user_id": "user-42"
                 *     }
                 */
                "application/json": {
                    /** Format: email */
                    email?: string;
                    /** @description E.164, e.g. +14155550123 */
                    phone?: string;
                    external_user_id?: string;
                };
            };
        };
        responses: {
            /** @description The code was sent; verify it with this attempt. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "connect_attempt",
                     *       "id": "ca_4rTy8UiO2pLk6JhG",
                     *       "channel": "email",
                     *       "expires_at": "2026-01-15T10:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ConnectAttempt"];
                };
            };
            /** @description Invalid request (`invalid_request`, `invalid_phone`), an attempt that cannot be verified (`invalid_connect_attempt`), or a connection token where a platform token belongs (`client_credentials_required`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid platform token (`unauthorized`), a wrong or expired code (`invalid_code`), or an unusable refresh token (`invalid_refresh_token`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection between the user and the calling client (`connection_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Too many codes for this destination or client (`rate_limited`); retry after `Retry-After`. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "rate_limited",
                     *         "message": "Too many requests; retry later.",
                     *         "docs": "https://purser.example/docs/errors#rate_limited",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The code could not be sent (`auth_provider_error`); the attempt cannot be verified, start again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    verifyConnectAttempt: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "connect_id": "ca_4rTy8UiO2pLk6JhG",
                 *       "code": "111111"
                 *     }
                 */
                "application/json": {
                    connect_id: string;
                    code: string;
                };
            };
        };
        responses: {
            /** @description The user is connected; their connection tokens. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "connection",
                     *       "access_token": "cat_Qm8vR2kX7nB4wL9tY3sJ6hF1gD5cZ0aE",
                     *       "refresh_token": "crt_Hn3wT8qL5vB2mK7xR9sY4jF6gD1cZ0aP",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "user": {
                     *         "id": "usr_7hGt3KqW9mNx2VbR",
                     *         "email": "ada@example.com",
                     *         "phone": null
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description Invalid request (`invalid_request`, `invalid_phone`), an attempt that cannot be verified (`invalid_connect_attempt`), or a connection token where a platform token belongs (`client_credentials_required`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid platform token (`unauthorized`), a wrong or expired code (`invalid_code`), or an unusable refresh token (`invalid_refresh_token`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection between the user and the calling client (`connection_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The code could not be sent (`auth_provider_error`); the attempt cannot be verified, start again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    recordConsent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                 *       "terms_version": "2026-01"
                 *     }
                 */
                "application/json": {
                    user_id: string;
                    terms_version?: string;
                };
            };
        };
        responses: {
            /** @description The consent as recorded (a repeat keeps its id and date). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "consent",
                     *       "id": "cns_2wEr5TyU8iOp3AsD",
                     *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                     *       "terms_version": "2026-01",
                     *       "created_at": "2026-01-15T10:02:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Consent"];
                };
            };
            /** @description Invalid request (`invalid_request`, `invalid_phone`), an attempt that cannot be verified (`invalid_connect_attempt`), or a connection token where a platform token belongs (`client_credentials_required`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid platform token (`unauthorized`), a wrong or expired code (`invalid_code`), or an unusable refresh token (`invalid_refresh_token`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection between the user and the calling client (`connection_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The code could not be sent (`auth_provider_error`); the attempt cannot be verified, start again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    refreshConnection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "refresh_token": "crt_Hn3wT8qL5vB2mK7xR9sY4jF6gD1cZ0aP"
                 *     }
                 */
                "application/json": {
                    refresh_token: string;
                };
            };
        };
        responses: {
            /** @description New tokens; the refresh token sent stops working. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "connection",
                     *       "access_token": "cat_Qm8vR2kX7nB4wL9tY3sJ6hF1gD5cZ0aE",
                     *       "refresh_token": "crt_Hn3wT8qL5vB2mK7xR9sY4jF6gD1cZ0aP",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600
                     *     }
                     */
                    "application/json": components["schemas"]["Connection"];
                };
            };
            /** @description Invalid request (`invalid_request`, `invalid_phone`), an attempt that cannot be verified (`invalid_connect_attempt`), or a connection token where a platform token belongs (`client_credentials_required`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No valid platform token (`unauthorized`), a wrong or expired code (`invalid_code`), or an unusable refresh token (`invalid_refresh_token`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection between the user and the calling client (`connection_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The code could not be sent (`auth_provider_error`); the attempt cannot be verified, start again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEmbedOrigins: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The list for the calling mode (empty until set). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "embed_origins",
                     *       "origins": [
                     *         "https://app.example.com",
                     *         "http://localhost:3000"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EmbedOrigins"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    replaceEmbedOrigins: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "origins": [
                 *         "https://app.example.com",
                 *         "http://localhost:3000"
                 *       ]
                 *     }
                 */
                "application/json": {
                    origins: string[];
                };
            };
        };
        responses: {
            /** @description The list as stored: canonical, without duplicates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "embed_origins",
                     *       "origins": [
                     *         "https://app.example.com",
                     *         "http://localhost:3000"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EmbedOrigins"];
                };
            };
            /** @description An entry is not an origin allowed here (`invalid_origin`, named in `field_errors`), or the list is too long (`invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query: {
                type?: string[];
                /** @description Created after this Unix time. */
                "created[gt]"?: number;
                /** @description Created at or after this Unix time. */
                "created[gte]"?: number;
                /** @description Created before this Unix time. */
                "created[lt]"?: number;
                /** @description Created at or before this Unix time. */
                "created[lte]"?: number;
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "id": "evt_8sDf3GhJ6kL9zXcV",
                     *           "type": "identity.verification.updated",
                     *           "created": 1768471200,
                     *           "livemode": false,
                     *           "data": {
                     *             "user_id": "usr_7hGt3KqW9mNx2VbR",
                     *             "status": "approved"
                     *           }
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["EventList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "evt_8sDf3GhJ6kL9zXcV",
                     *       "type": "identity.verification.updated",
                     *       "created": 1768471200,
                     *       "livemode": false,
                     *       "data": {
                     *         "user_id": "usr_7hGt3KqW9mNx2VbR",
                     *         "status": "approved"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Event"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query: {
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of webhook endpoints. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_endpoint",
                     *           "id": "wh_2qWe4RtY6uI8oPaS",
                     *           "url": "https://platform.example.com/purser/webhooks",
                     *           "description": "Production listener",
                     *           "enabled_events": [
                     *             "identity.*",
                     *             "card.authorization.created"
                     *           ],
                     *           "status": "active",
                     *           "livemode": false,
                     *           "signature_scheme": "purser",
                     *           "failure_count": 0,
                     *           "disabled_at": null,
                     *           "created": 1768471200
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://platform.example.com/purser/webhooks",
                 *       "enabled_events": [
                 *         "identity.*",
                 *         "card.authorization.created"
                 *       ],
                 *       "description": "Production listener"
                 *     }
                 */
                "application/json": {
                    /** @description https in production. */
                    url: string;
                    /** @description Known event types, `*` for every type, or prefixes of known families such as `card.*`; an unknown name is `invalid_event_type`. */
                    enabled_events: string[];
                    description?: null | string;
                    /** @description How deliveries are signed (docs/webhooks.md): `purser` (the default) sends the spec's `Service-Signature` (and the legacy `X-Service-Signature`); `standard_webhooks` sends Standard Webhooks' `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>` keyed with the base64 part of the secret), for any Standard Webhooks library to verify. */
                    signature_scheme?: "purser" | "standard_webhooks";
                };
            };
        };
        responses: {
            /** @description The endpoint, with its signing secret (shown only now). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "wh_2qWe4RtY6uI8oPaS",
                     *       "url": "https://platform.example.com/purser/webhooks",
                     *       "description": "Production listener",
                     *       "enabled_events": [
                     *         "identity.*",
                     *         "card.authorization.created"
                     *       ],
                     *       "status": "active",
                     *       "livemode": false,
                     *       "signature_scheme": "purser",
                     *       "failure_count": 0,
                     *       "disabled_at": null,
                     *       "created": 1768471200,
                     *       "secret": "whsec_q3B1m8N0yVxk6b2Jr5T9sLw4Hc7Pz1Ea2Df0Gh6Ui8o="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (without its secret). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "wh_2qWe4RtY6uI8oPaS",
                     *       "url": "https://platform.example.com/purser/webhooks",
                     *       "description": "Production listener",
                     *       "enabled_events": [
                     *         "identity.*",
                     *         "card.authorization.created"
                     *       ],
                     *       "status": "active",
                     *       "livemode": false,
                     *       "signature_scheme": "purser",
                     *       "failure_count": 0,
                     *       "disabled_at": null,
                     *       "created": 1768471200
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint is deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "wh_2qWe4RtY6uI8oPaS",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "webhook_endpoint";
                        id: string;
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "status": "active"
                 *     }
                 */
                "application/json": {
                    /** @description https in production. */
                    url?: string;
                    /** @description Known event types, `*` for every type, or prefixes of known families such as `card.*`; an unknown name is `invalid_event_type`. */
                    enabled_events?: string[];
                    description?: null | string;
                    status?: "active" | "disabled";
                    /** @description How deliveries are signed (docs/webhooks.md): `purser` (the default) sends the spec's `Service-Signature` (and the legacy `X-Service-Signature`); `standard_webhooks` sends Standard Webhooks' `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>` keyed with the base64 part of the secret), for any Standard Webhooks library to verify. */
                    signature_scheme?: "purser" | "standard_webhooks";
                };
            };
        };
        responses: {
            /** @description The endpoint as updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "wh_2qWe4RtY6uI8oPaS",
                     *       "url": "https://platform.example.com/purser/webhooks",
                     *       "description": "Production listener",
                     *       "enabled_events": [
                     *         "identity.*",
                     *         "card.authorization.created"
                     *       ],
                     *       "status": "active",
                     *       "livemode": false,
                     *       "signature_scheme": "purser",
                     *       "failure_count": 0,
                     *       "disabled_at": null,
                     *       "created": 1768471200
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    rollWebhookEndpointSecret: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint with its new signing secret (shown only now). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_endpoint",
                     *       "id": "wh_2qWe4RtY6uI8oPaS",
                     *       "url": "https://platform.example.com/purser/webhooks",
                     *       "description": "Production listener",
                     *       "enabled_events": [
                     *         "identity.*",
                     *         "card.authorization.created"
                     *       ],
                     *       "status": "active",
                     *       "livemode": false,
                     *       "signature_scheme": "purser",
                     *       "failure_count": 0,
                     *       "disabled_at": null,
                     *       "created": 1768471200,
                     *       "secret": "whsec_Lk9Jh7Gf5Ds3Ap1Qw8Er6Ty4Ui2Op0Zx+Mn3Bv5Cx7Z="
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    sendWebhookEndpointTest: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "type": "webhook_endpoint.test"
                 *     }
                 */
                "application/json": {
                    /** @description Default `webhook_endpoint.test`, the only type allowed in production; sandbox accepts any known type. */
                    type?: string;
                };
            };
        };
        responses: {
            /** @description The test event is queued for delivery to this endpoint. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_test",
                     *       "event_id": "evt_8sDf3GhJ6kL9zXcV",
                     *       "delivery_id": "whd_5tGb7YhN9uJm2IkL"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "webhook_test";
                        event_id: string;
                        delivery_id: string;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first. Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listWebhookEndpointDeliveries: {
        parameters: {
            query: {
                event_id?: string;
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the endpoint’s deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_delivery",
                     *           "id": "whd_5tGb7YhN9uJm2IkL",
                     *           "endpoint_id": "wh_2qWe4RtY6uI8oPaS",
                     *           "event_id": "evt_8sDf3GhJ6kL9zXcV",
                     *           "event_type": "identity.verification.updated",
                     *           "status": "succeeded",
                     *           "attempt_count": 1,
                     *           "next_attempt_at": null,
                     *           "last_status_code": 200,
                     *           "last_error": null,
                     *           "created": 1768471200,
                     *           "completed_at": 1768471201,
                     *           "attempts": [
                     *             {
                     *               "attempt": 1,
                     *               "attempted_at": 1768471201,
                     *               "status_code": 200,
                     *               "duration_ms": 84,
                     *               "succeeded": true,
                     *               "outcome": "succeeded",
                     *               "error": null,
                     *               "response_excerpt": "ok"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resendWebhookEvent: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event_id": "evt_8sDf3GhJ6kL9zXcV"
                 *     }
                 */
                "application/json": {
                    event_id: string;
                };
            };
        };
        responses: {
            /** @description The new delivery, queued. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_delivery",
                     *       "id": "whd_5tGb7YhN9uJm2IkL",
                     *       "endpoint_id": "wh_2qWe4RtY6uI8oPaS",
                     *       "event_id": "evt_8sDf3GhJ6kL9zXcV",
                     *       "event_type": "identity.verification.updated",
                     *       "status": "pending",
                     *       "attempt_count": 0,
                     *       "next_attempt_at": 1768471300,
                     *       "last_status_code": null,
                     *       "last_error": null,
                     *       "created": 1768471200,
                     *       "completed_at": null,
                     *       "attempts": []
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first. Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    recoverWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": 1768384800
                 *     }
                 */
                "application/json": {
                    /** @description Unix seconds; at most 14 days ago, not in the future. */
                    since: number;
                };
            };
        };
        responses: {
            /** @description The failed and cancelled deliveries since `since` are queued again. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "webhook_recovery",
                     *       "endpoint_id": "wh_2qWe4RtY6uI8oPaS",
                     *       "since": 1768384800,
                     *       "recovered": 12
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /** @description `since` is more than 14 days ago or in the future (`invalid_request`, `field_errors.since`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The endpoint is disabled (`endpoint_disabled`); PATCH it with `status: "active"` first. Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listEventDeliveries: {
        parameters: {
            query: {
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the event’s deliveries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "webhook_delivery",
                     *           "id": "whd_5tGb7YhN9uJm2IkL",
                     *           "endpoint_id": "wh_2qWe4RtY6uI8oPaS",
                     *           "event_id": "evt_8sDf3GhJ6kL9zXcV",
                     *           "event_type": "identity.verification.updated",
                     *           "status": "succeeded",
                     *           "attempt_count": 1,
                     *           "next_attempt_at": null,
                     *           "last_status_code": 200,
                     *           "last_error": null,
                     *           "created": 1768471200,
                     *           "completed_at": 1768471201,
                     *           "attempts": [
                     *             {
                     *               "attempt": 1,
                     *               "attempted_at": 1768471201,
                     *               "status_code": 200,
                     *               "duration_ms": 84,
                     *               "succeeded": true,
                     *               "outcome": "succeeded",
                     *               "error": null,
                     *               "response_excerpt": "ok"
                     *             }
                     *           ]
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    uploadKycDocumentFront: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                 *       "image": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/",
                 *       "mime_type": "image/jpeg",
                 *       "document_type": "drivers_license",
                 *       "issuing_country": "US"
                 *     }
                 */
                "application/json": {
                    /** @description A user connected to the calling client. */
                    user_id: string;
                    /** @description The photo, base64-encoded (JPEG or PNG). */
                    image: string;
                    /** @default image/jpeg */
                    mime_type?: "image/jpeg" | "image/png";
                    document_type: "drivers_license" | "state_id" | "passport";
                    /** @description ISO 3166-1 alpha-2, e.g. US */
                    issuing_country: string;
                };
            };
        };
        responses: {
            /** @description The photo was read; the state says what comes next (the back, or for a passport the next step). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "kyc",
                     *       "status": "awaiting_documents",
                     *       "iframe_url": "https://api.purser.example/kyc/verify/eyJ2IjoxLCJ2aWQiOiJreWNfN2hHdDNLcVc5bU54MlZiUiJ9.c2ln",
                     *       "warnings": [],
                     *       "extracted": {
                     *         "first_name": "ADA",
                     *         "last_name": "LOVELACE",
                     *         "date_of_birth": "1990-12-10",
                     *         "document_type": "drivers_license",
                     *         "issuing_country": "US"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["KycState"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user is not connected to the calling client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The verification does not take this upload now (`invalid_kyc_state`), or the document is verified for another user (`user_conflict`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The photo could not be read as the document (`document_unreadable`), the document has expired (`document_expired`), or a live verification got a sandbox sample document (`specimen_document`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The document check could not be reached (`verification_error`); try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    uploadKycDocumentBack: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                 *       "image": "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/",
                 *       "mime_type": "image/jpeg",
                 *       "document_type": "drivers_license",
                 *       "issuing_country": "US"
                 *     }
                 */
                "application/json": {
                    /** @description A user connected to the calling client. */
                    user_id: string;
                    /** @description The photo, base64-encoded (JPEG or PNG). */
                    image: string;
                    /** @default image/jpeg */
                    mime_type?: "image/jpeg" | "image/png";
                    document_type: "drivers_license" | "state_id" | "passport";
                    /** @description ISO 3166-1 alpha-2, e.g. US */
                    issuing_country: string;
                };
            };
        };
        responses: {
            /** @description The photo was read; the state says what comes next. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "kyc",
                     *       "status": "requires_verification",
                     *       "iframe_url": "https://api.purser.example/kyc/verify/eyJ2IjoxLCJ2aWQiOiJreWNfN2hHdDNLcVc5bU54MlZiUiJ9.c2ln",
                     *       "warnings": [],
                     *       "extracted": {
                     *         "address_city": "SPRINGFIELD",
                     *         "address_region": "IL",
                     *         "address_country": "US"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["KycState"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user is not connected to the calling client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The verification does not take this upload now (`invalid_kyc_state`), or the document is verified for another user (`user_conflict`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The photo could not be read as the document (`document_unreadable`), the document has expired (`document_expired`), or a live verification got a sandbox sample document (`specimen_document`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The document check could not be reached (`verification_error`); try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    submitKycInformation: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description Exactly the fields `required_fields` listed. Dates YYYY-MM-DD, phone numbers E.164, countries ISO 3166-1 alpha-2. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                 *       "address_line1": "12 Analytical Way",
                 *       "address_postal_code": "62701"
                 *     }
                 */
                "application/json": {
                    /** @description A user connected to the calling client. */
                    user_id: string;
                    first_name?: string;
                    last_name?: string;
                    date_of_birth?: string;
                    national_id_number?: string;
                    phone_number?: string;
                    address_line1?: string;
                    address_line2?: string;
                    address_city?: string;
                    address_region?: string;
                    address_postal_code?: string;
                    address_country?: string;
                };
            };
        };
        responses: {
            /** @description The fields were accepted; the state says what comes next. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "kyc",
                     *       "status": "pending"
                     *     }
                     */
                    "application/json": components["schemas"]["KycState"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The verification is not waiting for information (`invalid_kyc_state`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The review could not be reached (`verification_error`); try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getKycState: {
        parameters: {
            query: {
                /** @description A user connected to the calling client. */
                user_id: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's current KYC state. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "kyc",
                     *       "status": "needs_information",
                     *       "required_fields": [
                     *         "address_line1",
                     *         "address_postal_code"
                     *       ],
                     *       "iframe_url": "https://api.purser.example/kyc/verify/eyJ2IjoxLCJ2aWQiOiJreWNfN2hHdDNLcVc5bU54MlZiUiJ9.c2ln",
                     *       "reason": "We need a few more details to finish verifying your identity."
                     *     }
                     */
                    "application/json": components["schemas"]["KycState"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user is not connected to the calling client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateKycOutcome: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_7hGt3KqW9mNx2VbR",
                 *       "outcome": "approved"
                 *     }
                 */
                "application/json": {
                    /** @description A user connected to the calling client. */
                    user_id: string;
                    outcome: "approved" | "rejected" | "requires_input";
                    /** @description End-user-safe; must not name internal providers or identifiers (400 invalid_reason). */
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description The new state, as GET /api/v2/kyc reports it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "kyc",
                     *       "status": "approved"
                     *     }
                     */
                    "application/json": components["schemas"]["KycState"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The credential is not test mode (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The verification has no documents to decide on yet (`invalid_kyc_state`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listCards: {
        parameters: {
            query: {
                user_id?: string;
                status?: "ACTIVE" | "PAUSED" | "CLOSED";
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cards, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "card",
                     *           "id": "card_7Hq2LmN4pQr8StUv",
                     *           "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *           "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *           "type": "multi_use",
                     *           "last4": "4242",
                     *           "expiry": "11/29",
                     *           "status": "ACTIVE",
                     *           "spend_limit_cents": 5000,
                     *           "balance_cents": 3800,
                     *           "created_at": "2026-11-23T10:00:00.000Z",
                     *           "closed_reason": null,
                     *           "spending_controls": {
                     *             "allowed_categories": [],
                     *             "blocked_categories": [],
                     *             "allowed_merchant_countries": [],
                     *             "blocked_merchant_countries": [],
                     *             "spending_limits": []
                     *           }
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["CardList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createCard: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                 *       "amount_cents": 5000,
                 *       "type": "multi_use",
                 *       "memo": "Groceries",
                 *       "spending_controls": {
                 *         "allowed_categories": [
                 *           "grocery_stores_supermarkets"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    user_id: string;
                    /** @description The spend limit and first balance, in cents */
                    amount_cents: number;
                    type: "single_use" | "multi_use";
                    memo?: string;
                    /** @description `wallet` (the default): the user's wallet pays; `company`: the company wallet */
                    funding?: "wallet" | "company";
                    external_user_id?: string;
                    /** @description Company funding: wait for `collection_succeeded` (v1) */
                    ack_required?: boolean;
                    /** @description Allowed and blocked lists of one kind exclude each other (`400` naming both). A charge must pass the card's controls and its user's. */
                    spending_controls?: {
                        /** @description Only these categories may charge: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                        allowed_categories?: string[];
                        /** @description These categories are declined: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                        blocked_categories?: string[];
                        /** @description Only merchants in these countries may charge: ISO 3166-1 alpha-2 country codes */
                        allowed_merchant_countries?: string[];
                        /** @description Merchants in these countries are declined: ISO 3166-1 alpha-2 country codes */
                        blocked_merchant_countries?: string[];
                        /** @description Each limit counts approved authorizations less what voids and refunds gave back, in its window */
                        spending_limits?: {
                            amount_cents: number;
                            /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                            interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                            /** @description Only charges in these categories count and are limited: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                            categories?: string[];
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description The new card, funded from the wallet. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "ACTIVE",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 5000,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": null,
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description Company funding: the flow has started. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card_flow",
                     *       "transfer_id": "tr_4Gh8JkL1mNp4QrSt",
                     *       "status": "started",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "external_user_id": "customer-42",
                     *       "type": "single_use",
                     *       "amount_cents": 5000,
                     *       "fee_cents": 0,
                     *       "transfer_cents": 5000,
                     *       "netted_cents": 0,
                     *       "ack_required": false,
                     *       "ack_deadline": null,
                     *       "approved_via": null,
                     *       "tx_hash": null,
                     *       "failure_reason": null,
                     *       "card_id": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "card_flow";
                        transfer_id: string;
                        status: "awaiting_collection" | "started" | "approved" | "initiated" | "completed" | "card_created" | "failed" | "card_failed";
                        user_id: string;
                        cardholder_id: string;
                        external_user_id: string | null;
                        type: "single_use" | "multi_use";
                        /** @description The card's amount */
                        amount_cents: number;
                        /** @description The organization's fee, from the pool */
                        fee_cents: number;
                        /** @description What moves from the pool: the amount less what was netted */
                        transfer_cents: number;
                        /** @description Funds released to the user by an earlier failed card, used first */
                        netted_cents: number;
                        ack_required: boolean;
                        /** @description ISO 8601; only with ack_required */
                        ack_deadline: string | null;
                        approved_via: "api" | "auto" | null;
                        /** @description Null offline (sandbox) and for a fully netted transfer */
                        tx_hash: string | null;
                        failure_reason: string | null;
                        /** @description Set once the card is created */
                        card_id: string | null;
                        test_mode: boolean;
                        created_at: string;
                        updated_at: string;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The money is not there (`insufficient_funds`): fund the wallet and retry. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "insufficient_funds",
                     *         "message": "The user's wallet does not cover this amount.",
                     *         "docs": "https://purser.example/docs/errors#insufficient_funds",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user's identity verification is not approved (`kyc_required`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "kyc_required",
                     *         "message": "The user's identity verification must be approved first.",
                     *         "docs": "https://purser.example/docs/errors#kyc_required",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card issuer failed (`issuer_error`); nothing changed here, try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "issuer_error",
                     *         "message": "The card issuer did not answer; try again.",
                     *         "docs": "https://purser.example/docs/errors#issuer_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "ACTIVE",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 3800,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": null,
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateCard: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "spend_limit_cents": 8000,
                 *       "spending_controls": {
                 *         "blocked_categories": [
                 *           "betting_casino_gambling"
                 *         ]
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @description The new spend limit, in cents */
                    spend_limit_cents?: number;
                    /** @description Allowed and blocked lists of one kind exclude each other (`400` naming both). A charge must pass the card's controls and its user's. */
                    spending_controls?: {
                        /** @description Only these categories may charge: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                        allowed_categories?: string[];
                        /** @description These categories are declined: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                        blocked_categories?: string[];
                        /** @description Only merchants in these countries may charge: ISO 3166-1 alpha-2 country codes */
                        allowed_merchant_countries?: string[];
                        /** @description Merchants in these countries are declined: ISO 3166-1 alpha-2 country codes */
                        blocked_merchant_countries?: string[];
                        /** @description Each limit counts approved authorizations less what voids and refunds gave back, in its window */
                        spending_limits?: {
                            amount_cents: number;
                            /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                            interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                            /** @description Only charges in these categories count and are limited: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                            categories?: string[];
                        }[];
                    };
                };
            };
        };
        responses: {
            /** @description The card as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "ACTIVE",
                     *       "spend_limit_cents": 8000,
                     *       "balance_cents": 6800,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": null,
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [
                     *           "betting_casino_gambling"
                     *         ],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": [
                     *           {
                     *             "amount_cents": 20000,
                     *             "interval": "daily"
                     *           }
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description A malformed body, an unknown category or country, or an allowed and a blocked list of one kind both set (`invalid_request` naming each field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The money is not there (`insufficient_funds`): fund the wallet and retry. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "insufficient_funds",
                     *         "message": "The user's wallet does not cover this amount.",
                     *         "docs": "https://purser.example/docs/errors#insufficient_funds",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card is closed (`card_closed`), single-use (`card_not_multi_use`), company-funded and the limit higher (`company_funded_card`), or has spent or holds more than the lower limit leaves (`spend_limit_below_spent`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "spend_limit_below_spent",
                     *         "message": "The card has already spent or holds more than the new limit leaves it.",
                     *         "docs": "https://purser.example/docs/errors#spend_limit_below_spent",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card issuer failed (`issuer_error`); nothing changed here, try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "issuer_error",
                     *         "message": "The card issuer did not answer; try again.",
                     *         "docs": "https://purser.example/docs/errors#issuer_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    closeCard: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The closed card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "closed",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 0,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": "manual",
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "card";
                        id: string;
                        user_id: string;
                        cardholder_id: string;
                        type: "single_use" | "multi_use";
                        last4: string;
                        /** @description MM/YY */
                        expiry: string;
                        /**
                         * @description Always `closed` (spec §2 close response).
                         * @enum {string}
                         */
                        status: "closed";
                        spend_limit_cents: number;
                        balance_cents: number;
                        created_at: string;
                        closed_reason: string | null;
                        spending_controls: components["schemas"]["SpendingControls"];
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card issuer failed (`issuer_error`); nothing changed here, try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "issuer_error",
                     *         "message": "The card issuer did not answer; try again.",
                     *         "docs": "https://purser.example/docs/errors#issuer_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    pauseCard: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card, now PAUSED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "PAUSED",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 3800,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": null,
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card is closed (`card_closed`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "card_closed",
                     *         "message": "The card is closed; it can no longer change.",
                     *         "docs": "https://purser.example/docs/errors#card_closed",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card issuer failed (`issuer_error`); nothing changed here, try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "issuer_error",
                     *         "message": "The card issuer did not answer; try again.",
                     *         "docs": "https://purser.example/docs/errors#issuer_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resumeCard: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card, now ACTIVE. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "ACTIVE",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 3800,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": null,
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card is closed (`card_closed`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "card_closed",
                     *         "message": "The card is closed; it can no longer change.",
                     *         "docs": "https://purser.example/docs/errors#card_closed",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The card issuer failed (`issuer_error`); nothing changed here, try again. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "issuer_error",
                     *         "message": "The card issuer did not answer; try again.",
                     *         "docs": "https://purser.example/docs/errors#issuer_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revealCardDetails: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                card_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The number and CVV; never cache it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card_details",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "number": "4000001234564242",
                     *       "cvv": "123",
                     *       "expiry": "11/29",
                     *       "last4": "4242"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "card_details";
                        id: string;
                        number: string;
                        cvv: string;
                        expiry: string;
                        last4: string;
                    };
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Production numbers are not enabled for the organization (`card_details_unavailable`), or it is suspended. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "card_details_unavailable",
                     *         "message": "Revealing production card numbers is not enabled for this organization.",
                     *         "docs": "https://purser.example/docs/errors#card_details_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getWallet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "wallet",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "balance_cents": 25000,
                     *       "pending_cents": 0,
                     *       "currency": "usd",
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query: {
                card_id?: string;
                user_id?: string;
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transactions, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "transaction",
                     *           "id": "txn_9Jk3LmN5pQr2StUv",
                     *           "type": "purchase",
                     *           "card_id": "card_7Hq2LmN4pQr8StUv",
                     *           "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *           "last4": "4242",
                     *           "status": "PENDING",
                     *           "amount_cents": 1200,
                     *           "authorized_cents": 1200,
                     *           "voided_cents": 0,
                     *           "refunded_cents": 0,
                     *           "original_transaction_id": null,
                     *           "force_posted": false,
                     *           "merchant": "Corner Shop",
                     *           "mcc": "5411",
                     *           "merchant_country": "US",
                     *           "decline_reason": null,
                     *           "spending_control": null,
                     *           "authorization_decided_by": "engine",
                     *           "platform_reason": null,
                     *           "created_at": "2026-11-23T10:05:00.000Z",
                     *           "updated_at": "2026-11-23T10:05:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["TransactionList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                transaction_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The transaction. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "txn_9Jk3LmN5pQr2StUv",
                     *       "type": "purchase",
                     *       "card_id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "last4": "4242",
                     *       "status": "PENDING",
                     *       "amount_cents": 1200,
                     *       "authorized_cents": 1200,
                     *       "voided_cents": 0,
                     *       "refunded_cents": 0,
                     *       "original_transaction_id": null,
                     *       "force_posted": false,
                     *       "merchant": "Corner Shop",
                     *       "mcc": "5411",
                     *       "merchant_country": "US",
                     *       "decline_reason": null,
                     *       "spending_control": null,
                     *       "authorization_decided_by": "engine",
                     *       "platform_reason": null,
                     *       "created_at": "2026-11-23T10:05:00.000Z",
                     *       "updated_at": "2026-11-23T10:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listMerchantCategories: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "merchant_category",
                     *           "name": "grocery_stores_supermarkets",
                     *           "description": "Grocery Stores, Supermarkets",
                     *           "mccs": [
                     *             "5411"
                     *           ]
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: {
                            /** @enum {string} */
                            object: "merchant_category";
                            /** @description What `*_categories` take, beside four-digit codes */
                            name: string;
                            description: string;
                            /** @description The codes it covers: four digits, or an inclusive range (`3000-3350`) */
                            mccs: string[];
                        }[];
                        has_more: boolean;
                    };
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getUserSpendingControls: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user's controls. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "spending_controls",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "allowed_categories": [],
                     *       "blocked_categories": [
                     *         "betting_casino_gambling"
                     *       ],
                     *       "allowed_merchant_countries": [],
                     *       "blocked_merchant_countries": [],
                     *       "spending_limits": [
                     *         {
                     *           "amount_cents": 20000,
                     *           "interval": "daily"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UserSpendingControls"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    setUserSpendingControls: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        /** @description Allowed and blocked lists of one kind exclude each other (`400` naming both). A charge must pass the card's controls and its user's. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "allowed_categories": [],
                 *       "blocked_categories": [
                 *         "betting_casino_gambling"
                 *       ],
                 *       "allowed_merchant_countries": [],
                 *       "blocked_merchant_countries": [],
                 *       "spending_limits": [
                 *         {
                 *           "amount_cents": 20000,
                 *           "interval": "daily"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description Only these categories may charge: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                    allowed_categories?: string[];
                    /** @description These categories are declined: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                    blocked_categories?: string[];
                    /** @description Only merchants in these countries may charge: ISO 3166-1 alpha-2 country codes */
                    allowed_merchant_countries?: string[];
                    /** @description Merchants in these countries are declined: ISO 3166-1 alpha-2 country codes */
                    blocked_merchant_countries?: string[];
                    /** @description Each limit counts approved authorizations less what voids and refunds gave back, in its window */
                    spending_limits?: {
                        amount_cents: number;
                        /** @description `per_authorization` (each charge alone), or a calendar window in UTC: `daily`, `weekly` (from Monday), `monthly`, `yearly`, `all_time` */
                        interval: "per_authorization" | "daily" | "weekly" | "monthly" | "yearly" | "all_time";
                        /** @description Only charges in these categories count and are limited: four-digit merchant category codes or names of GET /api/v2/merchant_categories */
                        categories?: string[];
                    }[];
                };
            };
        };
        responses: {
            /** @description The controls as set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "spending_controls",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "allowed_categories": [],
                     *       "blocked_categories": [
                     *         "betting_casino_gambling"
                     *       ],
                     *       "allowed_merchant_countries": [],
                     *       "blocked_merchant_countries": [],
                     *       "spending_limits": [
                     *         {
                     *           "amount_cents": 20000,
                     *           "interval": "daily"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["UserSpendingControls"];
                };
            };
            /** @description An unknown category or country, or an allowed and a blocked list of one kind both set (`invalid_request` naming each field). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAuthorizationEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint (without its secret). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "authorization_endpoint",
                     *       "url": "https://platform.example/purser/authorizations",
                     *       "timeout_ms": 1500,
                     *       "on_timeout": "decline",
                     *       "livemode": false,
                     *       "created_at": "2026-11-27T18:00:00.000Z",
                     *       "updated_at": "2026-11-27T18:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "authorization_endpoint";
                        /** @description Where `authorization.request` is POSTed; `https` in production */
                        url: string;
                        /** @description How long a charge waits for the answer (default 1500); less when the issuer's deadline leaves less */
                        timeout_ms: number;
                        /** @description What no answer in time, or one that is not `{approved}`, decides (default `decline`) */
                        on_timeout: "approve" | "decline";
                        livemode: boolean;
                        /** @description The `whsec_…` secret `authorization.request` is signed with (`Service-Signature`, as webhooks): shown when the endpoint is created, never again */
                        secret?: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint is set in this mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    setAuthorizationEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://platform.example/purser/authorizations",
                 *       "timeout_ms": 1500,
                 *       "on_timeout": "decline"
                 *     }
                 */
                "application/json": {
                    /** @description Where `authorization.request` is POSTed; `https` in production */
                    url: string;
                    /** @description How long a charge waits for the answer (default 1500); less when the issuer's deadline leaves less */
                    timeout_ms?: number;
                    /** @description What no answer in time, or one that is not `{approved}`, decides (default `decline`) */
                    on_timeout?: "approve" | "decline";
                };
            };
        };
        responses: {
            /** @description The endpoint, changed; its secret unchanged and not shown. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "authorization_endpoint",
                     *       "url": "https://platform.example/purser/authorizations",
                     *       "timeout_ms": 1500,
                     *       "on_timeout": "decline",
                     *       "livemode": false,
                     *       "created_at": "2026-11-27T18:00:00.000Z",
                     *       "updated_at": "2026-11-27T18:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "authorization_endpoint";
                        /** @description Where `authorization.request` is POSTed; `https` in production */
                        url: string;
                        /** @description How long a charge waits for the answer (default 1500); less when the issuer's deadline leaves less */
                        timeout_ms: number;
                        /** @description What no answer in time, or one that is not `{approved}`, decides (default `decline`) */
                        on_timeout: "approve" | "decline";
                        livemode: boolean;
                        /** @description The `whsec_…` secret `authorization.request` is signed with (`Service-Signature`, as webhooks): shown when the endpoint is created, never again */
                        secret?: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description The endpoint, created, with its signing secret (shown this once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "authorization_endpoint",
                     *       "url": "https://platform.example/purser/authorizations",
                     *       "timeout_ms": 1500,
                     *       "on_timeout": "decline",
                     *       "livemode": false,
                     *       "created_at": "2026-11-27T18:00:00.000Z",
                     *       "updated_at": "2026-11-27T18:00:00.000Z",
                     *       "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3rpHz1RIQuE="
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "authorization_endpoint";
                        /** @description Where `authorization.request` is POSTed; `https` in production */
                        url: string;
                        /** @description How long a charge waits for the answer (default 1500); less when the issuer's deadline leaves less */
                        timeout_ms: number;
                        /** @description What no answer in time, or one that is not `{approved}`, decides (default `decline`) */
                        on_timeout: "approve" | "decline";
                        livemode: boolean;
                        /** @description The `whsec_…` secret `authorization.request` is signed with (`Service-Signature`, as webhooks): shown when the endpoint is created, never again */
                        secret?: string;
                        /** Format: date-time */
                        created_at: string;
                        /** Format: date-time */
                        updated_at: string;
                    };
                };
            };
            /** @description `url` not http(s), not https in production, or a destination never reached (`invalid_request` naming it). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteAuthorizationEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint is deleted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "authorization_endpoint",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "authorization_endpoint";
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No endpoint is set in this mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateWalletFunding: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                 *       "amount_cents": 25000
                 *     }
                 */
                "application/json": {
                    user_id: string;
                    amount_cents: number;
                };
            };
        };
        responses: {
            /** @description The funded wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "wallet",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "balance_cents": 25000,
                     *       "pending_cents": 0,
                     *       "currency": "usd",
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["Wallet"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateAuthorization: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "card_id": "card_7Hq2LmN4pQr8StUv",
                 *       "amount_cents": 1200,
                 *       "merchant": "Corner Shop",
                 *       "mcc": "5411",
                 *       "merchant_country": "US"
                 *     }
                 */
                "application/json": {
                    card_id: string;
                    /** @description The amount to authorize */
                    amount_cents: number;
                    merchant: string;
                    mcc?: string;
                    /** @description ISO 3166-1 alpha-2 */
                    merchant_country?: string;
                };
            };
        };
        responses: {
            /** @description The decision: PENDING (approved, funds held) or DECLINED. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "txn_9Jk3LmN5pQr2StUv",
                     *       "type": "purchase",
                     *       "card_id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "last4": "4242",
                     *       "status": "PENDING",
                     *       "amount_cents": 1200,
                     *       "authorized_cents": 1200,
                     *       "voided_cents": 0,
                     *       "refunded_cents": 0,
                     *       "original_transaction_id": null,
                     *       "force_posted": false,
                     *       "merchant": "Corner Shop",
                     *       "mcc": "5411",
                     *       "merchant_country": "US",
                     *       "decline_reason": null,
                     *       "spending_control": null,
                     *       "authorization_decided_by": "engine",
                     *       "platform_reason": null,
                     *       "created_at": "2026-11-23T10:05:00.000Z",
                     *       "updated_at": "2026-11-23T10:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such card. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateClearing: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_id": "txn_9Jk3LmN5pQr2StUv",
                 *       "amount_cents": 1000
                 *     }
                 */
                "application/json": {
                    transaction_id: string;
                    /** @description The amount */
                    amount_cents?: number;
                };
            };
        };
        responses: {
            /** @description The settled transaction. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "txn_9Jk3LmN5pQr2StUv",
                     *       "type": "purchase",
                     *       "card_id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "last4": "4242",
                     *       "status": "SETTLED",
                     *       "amount_cents": 1000,
                     *       "authorized_cents": 1200,
                     *       "voided_cents": 0,
                     *       "refunded_cents": 0,
                     *       "original_transaction_id": null,
                     *       "force_posted": false,
                     *       "merchant": "Corner Shop",
                     *       "mcc": "5411",
                     *       "merchant_country": "US",
                     *       "decline_reason": null,
                     *       "spending_control": null,
                     *       "authorization_decided_by": "engine",
                     *       "platform_reason": null,
                     *       "created_at": "2026-11-23T10:05:00.000Z",
                     *       "updated_at": "2026-11-23T10:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Clearing for more than authorized, beyond the card balance (`insufficient_funds`). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "insufficient_funds",
                     *         "message": "The user's wallet does not cover this amount.",
                     *         "docs": "https://purser.example/docs/errors#insufficient_funds",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such transaction. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Only a PENDING transaction moves (`transaction_not_pending`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "transaction_not_pending",
                     *         "message": "The transaction is SETTLED; only a PENDING one can move.",
                     *         "docs": "https://purser.example/docs/errors#transaction_not_pending",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateVoid: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_id": "txn_9Jk3LmN5pQr2StUv",
                 *       "amount_cents": 1000
                 *     }
                 */
                "application/json": {
                    transaction_id: string;
                    /** @description The amount */
                    amount_cents?: number;
                };
            };
        };
        responses: {
            /** @description The transaction, VOIDED, or PENDING for the rest (here 1000 of 1200 voided). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "txn_9Jk3LmN5pQr2StUv",
                     *       "type": "purchase",
                     *       "card_id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "last4": "4242",
                     *       "status": "PENDING",
                     *       "amount_cents": 200,
                     *       "authorized_cents": 1200,
                     *       "voided_cents": 1000,
                     *       "refunded_cents": 0,
                     *       "original_transaction_id": null,
                     *       "force_posted": false,
                     *       "merchant": "Corner Shop",
                     *       "mcc": "5411",
                     *       "merchant_country": "US",
                     *       "decline_reason": null,
                     *       "spending_control": null,
                     *       "authorization_decided_by": "engine",
                     *       "platform_reason": null,
                     *       "created_at": "2026-11-23T10:05:00.000Z",
                     *       "updated_at": "2026-11-23T10:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Clearing for more than authorized, beyond the card balance (`insufficient_funds`). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "insufficient_funds",
                     *         "message": "The user's wallet does not cover this amount.",
                     *         "docs": "https://purser.example/docs/errors#insufficient_funds",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such transaction. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Only a PENDING transaction moves (`transaction_not_pending`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "transaction_not_pending",
                     *         "message": "The transaction is SETTLED; only a PENDING one can move.",
                     *         "docs": "https://purser.example/docs/errors#transaction_not_pending",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateRefund: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "transaction_id": "txn_9Jk3LmN5pQr2StUv",
                 *       "amount_cents": 500
                 *     }
                 */
                "application/json": {
                    transaction_id: string;
                    /** @description The amount to give back */
                    amount_cents?: number;
                };
            };
        };
        responses: {
            /** @description The refund transaction. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "transaction",
                     *       "id": "txn_2Rt6LmN8pQr4StUw",
                     *       "type": "refund",
                     *       "card_id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "last4": "4242",
                     *       "status": "SETTLED",
                     *       "amount_cents": 500,
                     *       "authorized_cents": 500,
                     *       "voided_cents": 0,
                     *       "refunded_cents": 0,
                     *       "original_transaction_id": "txn_9Jk3LmN5pQr2StUv",
                     *       "force_posted": false,
                     *       "merchant": "Corner Shop",
                     *       "mcc": "5411",
                     *       "merchant_country": "US",
                     *       "decline_reason": null,
                     *       "spending_control": null,
                     *       "authorization_decided_by": "engine",
                     *       "platform_reason": null,
                     *       "created_at": "2026-11-23T10:05:00.000Z",
                     *       "updated_at": "2026-11-23T10:05:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description More than is left to refund (`invalid_request` naming `amount_cents`), or a malformed body. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such transaction. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Nothing to refund: the transaction settled nothing (`transaction_not_settled`), was refunded in full (`transaction_refunded`), or is itself a refund (`transaction_not_refundable`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "transaction_refunded",
                     *         "message": "The transaction has been refunded in full.",
                     *         "docs": "https://purser.example/docs/errors#transaction_refunded",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateProviderClose: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "card_id": "card_7Hq2LmN4pQr8StUv"
                 *     }
                 */
                "application/json": {
                    card_id: string;
                };
            };
        };
        responses: {
            /** @description The card, closed upstream. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card",
                     *       "id": "card_7Hq2LmN4pQr8StUv",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "type": "multi_use",
                     *       "last4": "4242",
                     *       "expiry": "11/29",
                     *       "status": "CLOSED",
                     *       "spend_limit_cents": 5000,
                     *       "balance_cents": 0,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "closed_reason": "provider_closed",
                     *       "spending_controls": {
                     *         "allowed_categories": [],
                     *         "blocked_categories": [],
                     *         "allowed_merchant_countries": [],
                     *         "blocked_merchant_countries": [],
                     *         "spending_limits": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such card. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createCardholder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "first_name": "Ada",
                 *       "last_name": "Lovelace",
                 *       "email": "ada@example.com",
                 *       "date_of_birth": "1990-12-10",
                 *       "phone_number": "+14155550123",
                 *       "external_user_id": "user-42"
                 *     }
                 */
                "application/json": {
                    first_name: string;
                    last_name: string;
                    /** Format: email */
                    email: string;
                    /** @description YYYY-MM-DD */
                    date_of_birth: string;
                    /** @description E.164, e.g. +14155550123 */
                    phone_number: string;
                    external_user_id?: string;
                };
            };
        };
        responses: {
            /** @description The new cardholder. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "cardholder",
                     *       "id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "first_name": "Ada",
                     *       "last_name": "Lovelace",
                     *       "email": "ada@example.com",
                     *       "date_of_birth": "1990-12-10",
                     *       "phone_number": "+14155550123",
                     *       "external_user_id": "user-42",
                     *       "user_id": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Cardholder"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCardholder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cardholder. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "cardholder",
                     *       "id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "first_name": "Ada",
                     *       "last_name": "Lovelace",
                     *       "email": "ada@example.com",
                     *       "date_of_birth": "1990-12-10",
                     *       "phone_number": "+14155550123",
                     *       "external_user_id": "user-42",
                     *       "user_id": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Cardholder"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateCardholder: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "last_name": "King"
                 *     }
                 */
                "application/json": {
                    first_name?: string;
                    last_name?: string;
                    /** Format: email */
                    email?: string;
                    /** @description YYYY-MM-DD */
                    date_of_birth?: string;
                    /** @description E.164, e.g. +14155550123 */
                    phone_number?: string;
                    external_user_id?: string;
                };
            };
        };
        responses: {
            /** @description The cardholder as changed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "cardholder",
                     *       "id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "first_name": "Ada",
                     *       "last_name": "King",
                     *       "email": "ada@example.com",
                     *       "date_of_birth": "1990-12-10",
                     *       "phone_number": "+14155550123",
                     *       "external_user_id": "user-42",
                     *       "user_id": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Cardholder"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPaymentMethodStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a payment method is stored (none until the vault exists). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "hasPaymentMethod": false
                     *     }
                     */
                    "application/json": {
                        hasPaymentMethod: boolean;
                        paymentMethodId?: string;
                    };
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getRevenueConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The configuration. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "revenue_config",
                     *       "organization_id": "org_2Df7GhJ9kLm3NpQr",
                     *       "rewardShareBps": 5000
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "revenue_config";
                        organization_id: string;
                        rewardShareBps: number;
                    };
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not the organization of the API key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateRevenueConfig: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "rewardShareBps": 5000
                 *     }
                 */
                "application/json": {
                    /** @description Basis points, 0 to 10000 */
                    rewardShareBps: number;
                };
            };
        };
        responses: {
            /** @description The configuration as set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "revenue_config",
                     *       "organization_id": "org_2Df7GhJ9kLm3NpQr",
                     *       "rewardShareBps": 5000
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "revenue_config";
                        organization_id: string;
                        rewardShareBps: number;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Not the organization of the API key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCompanyWallet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The company wallet of the token’s mode. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "company_wallet",
                     *       "balance_cents": 250000,
                     *       "reserved_cents": 5000,
                     *       "deposit_address": null,
                     *       "low_balance_threshold_cents": 1000,
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["CompanyWallet"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    updateCompanyWallet: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "low_balance_threshold_cents": 10000
                 *     }
                 */
                "application/json": {
                    low_balance_threshold_cents: number;
                };
            };
        };
        responses: {
            /** @description The updated wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "company_wallet",
                     *       "balance_cents": 250000,
                     *       "reserved_cents": 5000,
                     *       "deposit_address": null,
                     *       "low_balance_threshold_cents": 10000,
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["CompanyWallet"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    simulateCompanyFunding: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "amount_cents": 250000
                 *     }
                 */
                "application/json": {
                    amount_cents: number;
                };
            };
        };
        responses: {
            /** @description The funded wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "company_wallet",
                     *       "balance_cents": 250000,
                     *       "reserved_cents": 5000,
                     *       "deposit_address": null,
                     *       "low_balance_threshold_cents": 1000,
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["CompanyWallet"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A live token (`sandbox_only`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCardFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                transfer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card_flow",
                     *       "transfer_id": "tr_4Gh8JkL1mNp4QrSt",
                     *       "status": "card_created",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "external_user_id": "customer-42",
                     *       "type": "single_use",
                     *       "amount_cents": 5000,
                     *       "fee_cents": 0,
                     *       "transfer_cents": 5000,
                     *       "netted_cents": 0,
                     *       "ack_required": false,
                     *       "ack_deadline": null,
                     *       "approved_via": null,
                     *       "tx_hash": null,
                     *       "failure_reason": null,
                     *       "card_id": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CardFlow"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such flow in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    collectionSucceeded: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approved flow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card_flow",
                     *       "transfer_id": "tr_4Gh8JkL1mNp4QrSt",
                     *       "status": "approved",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "external_user_id": "customer-42",
                     *       "type": "single_use",
                     *       "amount_cents": 5000,
                     *       "fee_cents": 0,
                     *       "transfer_cents": 5000,
                     *       "netted_cents": 0,
                     *       "ack_required": true,
                     *       "ack_deadline": "2026-11-23T10:15:00.000Z",
                     *       "approved_via": "api",
                     *       "tx_hash": null,
                     *       "failure_reason": null,
                     *       "card_id": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CardFlow"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such transfer for this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The transfer does not await an acknowledgement (`transfer_not_awaiting_ack`), or the deadline passed (`ack_deadline_passed`: it failed with `ack_timeout`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "transfer_not_awaiting_ack",
                     *         "message": "This transfer no longer awaits an acknowledgement.",
                     *         "docs": "https://purser.example/docs/errors#transfer_not_awaiting_ack",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    collectionFailed: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The failed flow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "card_flow",
                     *       "transfer_id": "tr_4Gh8JkL1mNp4QrSt",
                     *       "status": "failed",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUv",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "external_user_id": "customer-42",
                     *       "type": "single_use",
                     *       "amount_cents": 5000,
                     *       "fee_cents": 0,
                     *       "transfer_cents": 5000,
                     *       "netted_cents": 0,
                     *       "ack_required": true,
                     *       "ack_deadline": "2026-11-23T10:15:00.000Z",
                     *       "approved_via": null,
                     *       "tx_hash": null,
                     *       "failure_reason": "ack_denied",
                     *       "card_id": null,
                     *       "test_mode": true,
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CardFlow"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such transfer for this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The transfer does not await an acknowledgement (`transfer_not_awaiting_ack`), or the deadline passed (`ack_deadline_passed`: it failed with `ack_timeout`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "transfer_not_awaiting_ack",
                     *         "message": "This transfer no longer awaits an acknowledgement.",
                     *         "docs": "https://purser.example/docs/errors#transfer_not_awaiting_ack",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    buy: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "ask": "2 lattes from coffee"
                 *     }
                 */
                "application/json": {
                    /** @description The plain-text wish */
                    ask?: string;
                    conversation_id?: string;
                    /** @description A cart `hash`, or several for a multi-cart confirm */
                    confirm?: string | string[];
                    /** @description `balance` (default) pays from the wallet; `vault` and `added_card` (test mode) pay with the user's card in the vault once they approve with their passkey; the others answer `unsupported_payment_source`. */
                    payment_source?: "balance" | "added_card" | "vault" | "company_balance" | "stored_payment_method";
                    delivery_address?: {
                        name: string;
                        line1: string;
                        line2?: string | null;
                        city: string;
                        region?: string | null;
                        postal_code: string;
                        /** @description ISO 3166-1 alpha-2 */
                        country: string;
                    };
                };
            };
        };
        responses: {
            /** @description The turn’s outcome. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "conversation_id": "conv_7Hj2Kl9MnP4qRsTu",
                     *       "status": "needs_input",
                     *       "reply": "Sandbox Coffee: 2 × Latte at 4.75 USD; tip 1.43 USD. Total 10.93 USD. To buy, confirm q2Yb….",
                     *       "messages": [
                     *         "Sandbox Coffee: 2 × Latte at 4.75 USD; tip 1.43 USD. Total 10.93 USD. To buy, confirm q2Yb…."
                     *       ],
                     *       "cart": {
                     *         "merchant": "coffee",
                     *         "merchant_name": "Sandbox Coffee",
                     *         "items": [
                     *           {
                     *             "name": "Latte",
                     *             "qty": 2,
                     *             "priceCents": 475,
                     *             "product_id": "cof_latte"
                     *           }
                     *         ],
                     *         "serviceFeesCents": 0,
                     *         "tipCents": 143,
                     *         "taxCents": 0,
                     *         "shippingCents": 0,
                     *         "totalCents": 1093,
                     *         "approvedCeilingCents": null,
                     *         "hash": "q2Yb0Wq7nN3x9m1rJ6Zf7p1yqkS2l8c0f9cQeY3m4uE",
                     *         "currency": "usd",
                     *         "expires_at": "2026-11-23T10:30:00.000Z"
                     *       },
                     *       "carts": [
                     *         {
                     *           "merchant": "coffee",
                     *           "merchant_name": "Sandbox Coffee",
                     *           "items": [
                     *             {
                     *               "name": "Latte",
                     *               "qty": 2,
                     *               "priceCents": 475,
                     *               "product_id": "cof_latte"
                     *             }
                     *           ],
                     *           "serviceFeesCents": 0,
                     *           "tipCents": 143,
                     *           "taxCents": 0,
                     *           "shippingCents": 0,
                     *           "totalCents": 1093,
                     *           "approvedCeilingCents": null,
                     *           "hash": "q2Yb0Wq7nN3x9m1rJ6Zf7p1yqkS2l8c0f9cQeY3m4uE",
                     *           "currency": "usd",
                     *           "expires_at": "2026-11-23T10:30:00.000Z"
                     *         }
                     *       ],
                     *       "catalog": null,
                     *       "unmatched": [],
                     *       "order_id": null,
                     *       "payment_source": null,
                     *       "decline_code": null,
                     *       "approval_url": null,
                     *       "charge_status": null,
                     *       "placements": null,
                     *       "error_code": null
                     *     }
                     */
                    "application/json": components["schemas"]["PurchaseEnvelope"];
                };
            };
            /** @description Schema failure (`invalid_request` with `field_errors`), or neither `ask` nor `confirm`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; `user_token_required` for a platform token). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such conversation for this user and client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The object is not in a state that takes this call; read it and follow its state. Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The content could not be used (see `error.code`); the message says what to change. Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listBuyMerchants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every merchant. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "slug": "coffee",
                     *           "name": "Sandbox Coffee",
                     *           "market": {
                     *             "countries": [
                     *               "US"
                     *             ],
                     *             "currency": "usd"
                     *           },
                     *           "mcc": "5814",
                     *           "country": "US",
                     *           "protocol": "sandbox",
                     *           "sandbox": true
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "list";
                        data: {
                            slug: string;
                            name: string;
                            market: {
                                countries: string[];
                                currency: string;
                            };
                            /** @description Its merchant category code, what spending controls judge */
                            mcc: string | null;
                            /** @description Where it is (ISO 3166-1 alpha-2) */
                            country: string;
                            protocol: "sandbox" | "acp";
                            sandbox: boolean;
                        }[];
                        /** @description Always false: every merchant is on the one page. */
                        has_more: boolean;
                    };
                };
            };
            /** @description A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; `user_token_required` for a platform token). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getBuyConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "conversation",
                     *       "id": "conv_7Hj2Kl9MnP4qRsTu",
                     *       "status": "order_placed",
                     *       "turn_in_progress": false,
                     *       "carts": [],
                     *       "orders": [
                     *         {
                     *           "order_id": "ord_2Lm8Np4QrSt6UvWx",
                     *           "status": "confirmed",
                     *           "merchant": "coffee",
                     *           "merchant_name": "Sandbox Coffee",
                     *           "total_cents": 1093,
                     *           "charge_status": "settled",
                     *           "fulfillment_status": "unfulfilled",
                     *           "placed_at": "2026-11-23T10:01:00.000Z"
                     *         }
                     *       ],
                     *       "last_checkout": null,
                     *       "messages": []
                     *     }
                     */
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; `user_token_required` for a platform token). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such conversation for this user and client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getBuyOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "order",
                     *       "id": "ord_2Lm8Np4QrSt6UvWx",
                     *       "conversation_id": "conv_7Hj2Kl9MnP4qRsTu",
                     *       "status": "confirmed",
                     *       "merchant": "coffee",
                     *       "merchant_name": "Sandbox Coffee",
                     *       "items": [
                     *         {
                     *           "name": "Latte",
                     *           "qty": 2,
                     *           "priceCents": 475,
                     *           "product_id": "cof_latte"
                     *         }
                     *       ],
                     *       "total_cents": 1093,
                     *       "approved_cents": 1093,
                     *       "currency": "usd",
                     *       "charge_status": "settled",
                     *       "fulfillment_status": "shipped",
                     *       "decline_code": null,
                     *       "card_id": "card_2Lm8Np4QrSt6UvWx",
                     *       "merchant_order_id": "sbx_ord_2Lm8Np4QrSt6UvWx",
                     *       "placed_at": "2026-11-23T10:01:00.000Z",
                     *       "confirmed_at": "2026-11-23T10:01:00.000Z",
                     *       "created_at": "2026-11-23T10:01:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description A user token is required: a connection `access_token` or a cardholder `buy_token` (`unauthorized`; `user_token_required` for a platform token). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such order for this user and client. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createBuyToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The token (shown once). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "buy_token",
                     *       "token": "bt_9fK2mN4pQ7rS1tU3vW5xY",
                     *       "expires_at": "2026-11-23T11:00:00.000Z"
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "buy_token";
                        token: string;
                        expires_at: string;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such cardholder for this key. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getReceiptKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "keys": [
                     *         {
                     *           "kty": "EC",
                     *           "crv": "P-256",
                     *           "x": "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
                     *           "y": "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
                     *           "kid": "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
                     *           "alg": "ES256",
                     *           "use": "sig"
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ReceiptJwks"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getOrderReceipt: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The receipt. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "receipt",
                     *       "order_id": "ord_2Lm8Np4QrSt6UvWx",
                     *       "mandate_id": "mdt_7Hj2Kl9MnP4qRsTu",
                     *       "kid": "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs",
                     *       "jws": "eyJhbGciOiJFUzI1NiIsImtpZCI6Ik56YkxzWGg4dURDY2QtNk1Od1hGNFdfN25vV1hGWkFmSGt4WnNSR0M5WHMifQ.eyJtYW5kYXRlX2lkIjoibWR0XzdIajJLbDlNblA0cVJzVHUifQ.MEUCIQDa…",
                     *       "claims": {
                     *         "mandate_id": "mdt_7Hj2Kl9MnP4qRsTu",
                     *         "terms_hash": "c0535e4be2b79ffd93291305436bf889314e4a3faec05ecffcbb7df31ad9e51a",
                     *         "cart_hash": "9f2c4e1a7b3d5f6e8a0c2d4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a",
                     *         "order_id": "ord_2Lm8Np4QrSt6UvWx",
                     *         "amount_cents": 1093,
                     *         "currency": "usd",
                     *         "merchant": "coffee",
                     *         "placed_at": "2026-11-23T10:01:00.000Z"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Receipt"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such order in this organization and mode, or it was not placed under a mandate. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCheckoutCoverage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The coverage catalog (docs/checkout-coverage.md). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "checkout_coverage",
                     *       "integration": "direct_sdk",
                     *       "merchant_confirmation_required": true,
                     *       "validation": "recognition_only",
                     *       "processors": [
                     *         {
                     *           "psp": "purser_sandbox",
                     *           "mode": "sandbox",
                     *           "methods": [
                     *             "POST"
                     *           ],
                     *           "hosts": [],
                     *           "client_side_encryption": "not_applicable",
                     *           "challenge_surface": "none",
                     *           "outcome": "authorized_and_cleared",
                     *           "request_flows": [
                     *             {
                     *               "flow": "single_use_card",
                     *               "coverage": "full",
                     *               "amount_authority": "purser_ceiling"
                     *             }
                     *           ],
                     *           "limitations": [
                     *             "Sandbox money only: the built-in sandbox merchants (retail, grocery, coffee, paris-bakery) run in the process.",
                     *             "Orders in a currency other than the wallet's (USD) are declined with unsupported_currency."
                     *           ]
                     *         },
                     *         {
                     *           "psp": "acp_delegated_payment",
                     *           "mode": "production",
                     *           "methods": [
                     *             "POST"
                     *           ],
                     *           "hosts": [
                     *             "<merchant acp_url>/agentic_commerce/delegate_payment",
                     *             "<merchant acp_url>/checkout_sessions"
                     *           ],
                     *           "client_side_encryption": "not_supported",
                     *           "challenge_surface": "merchant_browser",
                     *           "outcome": "vault_token_then_merchant_charge",
                     *           "request_flows": [
                     *             {
                     *               "flow": "delegate_payment",
                     *               "coverage": "full",
                     *               "amount_authority": "allowance_max_amount"
                     *             },
                     *             {
                     *               "flow": "checkout_session_complete",
                     *               "coverage": "full",
                     *               "amount_authority": "merchant_total_within_allowance"
                     *             }
                     *           ],
                     *           "limitations": [
                     *             "Agentic Commerce Protocol 2026-04-17 only; discounts, 3-D Secure challenges and buyer details are not sent.",
                     *             "The single-use card is delegated once per order, scoped by an allowance whose max_amount is the confirmed ceiling."
                     *           ]
                     *         },
                     *         {
                     *           "psp": "stripe",
                     *           "mode": "production",
                     *           "methods": [
                     *             "POST"
                     *           ],
                     *           "hosts": [
                     *             "api.stripe.com"
                     *           ],
                     *           "client_side_encryption": "not_supported",
                     *           "challenge_surface": "merchant_browser",
                     *           "outcome": "recognized",
                     *           "request_flows": [
                     *             {
                     *               "flow": "acp_shared_payment_token",
                     *               "coverage": "partial",
                     *               "amount_authority": "allowance_max_amount"
                     *             }
                     *           ],
                     *           "limitations": [
                     *             "Reached only through an ACP merchant that vaults with Stripe; Purser never calls Stripe directly.",
                     *             "Recognized, not tested end to end against a live Stripe account."
                     *           ]
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CheckoutCoverage"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    resetPasskeys: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reset, and its page. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "passkey_reset",
                     *       "id": "pkr_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "status": "pending",
                     *       "channel": null,
                     *       "url": "https://purser.example/passkeys/reset/pkrt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0gH",
                     *       "expires_at": "2026-11-23T10:30:00.000Z",
                     *       "completed_at": null,
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["PasskeyReset"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode, or the user is not connected to the platform (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user has neither a phone number nor an email (`contact_missing`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPasskeyReset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reset (without its url). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "passkey_reset",
                     *       "id": "pkr_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "status": "completed",
                     *       "channel": "email",
                     *       "expires_at": "2026-11-23T10:30:00.000Z",
                     *       "completed_at": "2026-11-23T10:07:12.000Z",
                     *       "test_mode": true
                     *     }
                     */
                    "application/json": components["schemas"]["PasskeyReset"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such reset in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createVaultLink: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user": "usr_3Fk9LmN2pQr7StUv"
                 *     }
                 */
                "application/json": {
                    user: string;
                };
            };
        };
        responses: {
            /** @description The session was opened. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "vault_link",
                     *       "sent": true,
                     *       "delivery": "sms",
                     *       "user": "usr_3Fk9LmN2pQr7StUv"
                     *     }
                     */
                    "application/json": components["schemas"]["VaultLink"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user is not connected to the platform (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user has no phone or email on file (`contact_missing`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listMandates: {
        parameters: {
            query: {
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
                /** @description Only this app’s mandates */
                client_id?: string;
            };
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of mandates. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "mandate",
                     *           "id": "mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y",
                     *           "status": "pending_approval",
                     *           "approval_url": "https://purser.example/mandates/mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y/approve/Hq2Lm…",
                     *           "terms_hash": "3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8a55",
                     *           "terms": {
                     *             "client_id": "cli_8Qw2Er4Ty6Ui8Op0",
                     *             "description": "Weekly groceries",
                     *             "currency": "usd",
                     *             "max_amount_cents": 15000,
                     *             "budget": {
                     *               "amount_cents": 40000,
                     *               "interval": "monthly"
                     *             },
                     *             "allowed_categories": [
                     *               "5411"
                     *             ],
                     *             "allowed_merchants": null,
                     *             "expires_at": "2027-05-31T23:59:59.000Z"
                     *           },
                     *           "spent_cents": 0,
                     *           "remaining_cents": 40000,
                     *           "created_at": "2026-11-27T10:00:00.000Z",
                     *           "approved_at": null,
                     *           "expires_at": "2027-05-31T23:59:59.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["MandateList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createMandate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "client_id": "cli_8Qw2Er4Ty6Ui8Op0",
                 *       "description": "Weekly groceries",
                 *       "currency": "usd",
                 *       "max_amount_cents": 15000,
                 *       "budget": {
                 *         "amount_cents": 40000,
                 *         "interval": "monthly"
                 *       },
                 *       "allowed_categories": [
                 *         "5411"
                 *       ],
                 *       "allowed_merchants": null,
                 *       "expires_at": "2027-05-31T23:59:59.000Z"
                 *     }
                 */
                "application/json": {
                    /** @description The OAuth app the mandate lets buy */
                    client_id: string;
                    /** @description What the app buys, in the user’s words */
                    description: string;
                    /** @description `usd` */
                    currency: string;
                    /** @description The most one purchase may cost, in cents */
                    max_amount_cents: number;
                    budget: {
                        /** @description What the purchases may spend in each interval, in cents */
                        amount_cents: number;
                        /** @description `daily`, `weekly` (ISO weeks, from Monday) and `monthly` are UTC calendar windows; `total` is the whole life of the mandate */
                        interval: "daily" | "weekly" | "monthly" | "total";
                    };
                    /** @description Four-digit merchant category codes or category names of GET /api/v2/merchant_categories; null: every category */
                    allowed_categories?: string[] | null;
                    /** @description Merchant slugs (as `/buy` names them); null: every merchant */
                    allowed_merchants?: string[] | null;
                    /** @description ISO 8601 with a time zone; in the future, at most 366 days ahead */
                    expires_at: string;
                };
            };
        };
        responses: {
            /** @description The mandate, waiting for the user. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "mandate",
                     *       "id": "mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y",
                     *       "status": "pending_approval",
                     *       "approval_url": "https://purser.example/mandates/mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y/approve/Hq2Lm…",
                     *       "terms_hash": "3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8a55",
                     *       "terms": {
                     *         "client_id": "cli_8Qw2Er4Ty6Ui8Op0",
                     *         "description": "Weekly groceries",
                     *         "currency": "usd",
                     *         "max_amount_cents": 15000,
                     *         "budget": {
                     *           "amount_cents": 40000,
                     *           "interval": "monthly"
                     *         },
                     *         "allowed_categories": [
                     *           "5411"
                     *         ],
                     *         "allowed_merchants": null,
                     *         "expires_at": "2027-05-31T23:59:59.000Z"
                     *       },
                     *       "spent_cents": 0,
                     *       "remaining_cents": 40000,
                     *       "created_at": "2026-11-27T10:00:00.000Z",
                     *       "approved_at": null,
                     *       "expires_at": "2027-05-31T23:59:59.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            /** @description A field is missing or not valid (`invalid_request`, `field_errors` names it): also an unknown `client_id`, a `max_amount_cents` above the budget, an `expires_at` in the past. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getMandate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mandate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "mandate",
                     *       "id": "mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y",
                     *       "status": "pending_approval",
                     *       "approval_url": "https://purser.example/mandates/mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y/approve/Hq2Lm…",
                     *       "terms_hash": "3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8a55",
                     *       "terms": {
                     *         "client_id": "cli_8Qw2Er4Ty6Ui8Op0",
                     *         "description": "Weekly groceries",
                     *         "currency": "usd",
                     *         "max_amount_cents": 15000,
                     *         "budget": {
                     *           "amount_cents": 40000,
                     *           "interval": "monthly"
                     *         },
                     *         "allowed_categories": [
                     *           "5411"
                     *         ],
                     *         "allowed_merchants": null,
                     *         "expires_at": "2027-05-31T23:59:59.000Z"
                     *       },
                     *       "spent_cents": 0,
                     *       "remaining_cents": 40000,
                     *       "created_at": "2026-11-27T10:00:00.000Z",
                     *       "approved_at": null,
                     *       "expires_at": "2027-05-31T23:59:59.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such mandate in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    revokeMandate: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The revoked mandate. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "mandate",
                     *       "id": "mdt_0Qn3Lm8pX2fRk7Tb9vWc4Y",
                     *       "status": "revoked",
                     *       "approval_url": null,
                     *       "terms_hash": "3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8a55",
                     *       "terms": {
                     *         "client_id": "cli_8Qw2Er4Ty6Ui8Op0",
                     *         "description": "Weekly groceries",
                     *         "currency": "usd",
                     *         "max_amount_cents": 15000,
                     *         "budget": {
                     *           "amount_cents": 40000,
                     *           "interval": "monthly"
                     *         },
                     *         "allowed_categories": [
                     *           "5411"
                     *         ],
                     *         "allowed_merchants": null,
                     *         "expires_at": "2027-05-31T23:59:59.000Z"
                     *       },
                     *       "spent_cents": 0,
                     *       "remaining_cents": 40000,
                     *       "created_at": "2026-11-27T10:00:00.000Z",
                     *       "approved_at": null,
                     *       "expires_at": "2027-05-31T23:59:59.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["Mandate"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such mandate in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The mandate has expired (`invalid_mandate_state`). Or: A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createWalletLink: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "user_id": "usr_3Fk9LmN2pQr7StUvWx1yZa",
                 *       "expires_in": 900
                 *     }
                 */
                "application/json": {
                    user_id: string;
                    /** @description Seconds until the link stops working (spec §8); default 900. */
                    expires_in?: number;
                    /** @description Beyond the spec: true asks Purser to send the link to the phone on the user's account, else the email (as a vault link goes); `delivery` then says what happened. Default false: the platform delivers the `url`. */
                    send?: boolean;
                };
            };
        };
        responses: {
            /** @description The link, active until `expires_at`. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "wallet_link",
                     *       "id": "wl_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "user_id": "usr_3Fk9LmN2pQr7StUvWx1yZa",
                     *       "status": "active",
                     *       "url": "https://purser.example/wallet/wlt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0gH2iJ4kL6mN8",
                     *       "expires_at": "2026-11-23T10:15:00.000Z",
                     *       "test_mode": true,
                     *       "delivery": null
                     *     }
                     */
                    "application/json": components["schemas"]["WalletLink"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Production without an active subscription (`subscription_required`). */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "subscription_required",
                     *         "message": "Production wallet links need an active subscription.",
                     *         "docs": "https://purser.example/docs/errors#subscription_required",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The user's identity verification was rejected (`wallet_link_unavailable`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "wallet_link_unavailable",
                     *         "message": "A wallet link cannot be created for this user: the user's identity verification was rejected.",
                     *         "docs": "https://purser.example/docs/errors#wallet_link_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Wallet links are not enabled for the organization, or no such user in this organization and mode (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "Wallet links are not enabled for this organization.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Something must be recorded first (`user_info_required`, with `missing_fields`); with `send`, the user has no phone or email (`contact_missing`); or an `Idempotency-Key` reused with another body (`idempotency_key_reused`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "user_info_required",
                     *         "message": "Record the user's consent first (POST /api/v2/connect/consent).",
                     *         "docs": "https://purser.example/docs/errors#user_info_required",
                     *         "field_errors": {},
                     *         "warnings": [],
                     *         "missing_fields": [
                     *           "consent"
                     *         ]
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createCardholderOnboardingSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "external_user_id": "user-42",
                 *       "email": "ada@example.com",
                 *       "state": "opaque-42",
                 *       "return_url": "https://platform.example/onboarding/done"
                 *     }
                 */
                "application/json": {
                    external_user_id: string;
                    /** Format: email */
                    email?: string;
                    state?: string;
                    return_url: string;
                };
            };
        };
        responses: {
            /** @description The open session and its page. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "cardholder_onboarding_session",
                     *       "id": "cos_7Hk2LmN9pQr4StUv",
                     *       "url": "https://purser.example/onboarding/onb_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g",
                     *       "status": "open",
                     *       "external_user_id": "user-42",
                     *       "email": "ada@example.com",
                     *       "state": "opaque-42",
                     *       "return_url": "https://platform.example/onboarding/done",
                     *       "cardholder_id": null,
                     *       "claimed_existing_cardholder": false,
                     *       "livemode": false,
                     *       "expires_at": "2026-11-24T10:00:00.000Z",
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CardholderOnboardingSession"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getCardholderOnboardingSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "cardholder_onboarding_session",
                     *       "id": "cos_7Hk2LmN9pQr4StUv",
                     *       "url": null,
                     *       "status": "completed",
                     *       "external_user_id": "user-42",
                     *       "email": "ada@example.com",
                     *       "state": "opaque-42",
                     *       "return_url": "https://platform.example/onboarding/done",
                     *       "cardholder_id": "ch_5Gh8JkL1mNp4QrSt",
                     *       "claimed_existing_cardholder": false,
                     *       "livemode": false,
                     *       "expires_at": "2026-11-24T10:00:00.000Z",
                     *       "completed_at": "2026-11-23T10:04:00.000Z",
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["CardholderOnboardingSession"];
                };
            };
            /** @description A valid API key (`sk_test_…` / `sk_live_…`) is required (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createPlatformConnectSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "state": "opaque-7",
                 *       "return_url": "https://platform.example/connected"
                 *     }
                 */
                "application/json": {
                    state?: string;
                    return_url: string;
                };
            };
        };
        responses: {
            /** @description The open session and its page. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "platform_connect_session",
                     *       "id": "pcs_4Tq8NmK2pLr7SvWx",
                     *       "url": "https://purser.example/platform-connect/pct_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g",
                     *       "status": "open",
                     *       "state": "opaque-7",
                     *       "return_url": "https://platform.example/connected",
                     *       "connected_organization_id": null,
                     *       "livemode": false,
                     *       "expires_at": "2026-11-23T11:00:00.000Z",
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PlatformConnectSession"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getPlatformConnectSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "platform_connect_session",
                     *       "id": "pcs_4Tq8NmK2pLr7SvWx",
                     *       "url": "https://purser.example/platform-connect/pct_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g",
                     *       "status": "open",
                     *       "state": "opaque-7",
                     *       "return_url": "https://platform.example/connected",
                     *       "connected_organization_id": null,
                     *       "livemode": false,
                     *       "expires_at": "2026-11-23T11:00:00.000Z",
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["PlatformConnectSession"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listConnectedOrganizations: {
        parameters: {
            query: {
                /** @description How many objects at most (1 to 100, default 10). */
                limit: number;
                /** @description The id of the last object of the previous page: this page starts after it. An id that is not in this list is `400 invalid_request`. */
                starting_after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connected organizations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "connected_organization",
                     *           "id": "org_9Xk2LmN4pQr6StUv",
                     *           "name": "Corner Shop Ltd",
                     *           "session_id": "pcs_4Tq8NmK2pLr7SvWx",
                     *           "livemode": false,
                     *           "connected_at": "2026-11-23T10:04:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["ConnectedOrganizationList"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    startMessagingOAuth: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The authorization request was created. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "messaging_oauth",
                     *       "url": "https://messaging.example/oauth/authorize?response_type=code&client_id=purser&redirect_uri=https%3A%2F%2Fpurser.example%2Fapi%2Fv2%2Fprovider%2Foauth%2Fcallback&scope=messages%3Asend&state=4kQ2mN8pR6sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256",
                     *       "state": "4kQ2mN8pR6sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0",
                     *       "expires_at": "2026-11-23T10:10:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MessagingOAuth"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No messaging provider is configured on this server (`messaging_not_configured`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    messagingOAuthCallback: {
        parameters: {
            query?: {
                code?: string;
                state?: string;
                error?: string;
                error_description?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Connected (or, as a page only, declined at the provider). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>… */
                    "text/html": string;
                    /**
                     * @example {
                     *       "object": "messaging_connection",
                     *       "connected": true,
                     *       "provider_organization_ids": [
                     *         "porg_8Hk2"
                     *       ],
                     *       "scopes": [
                     *         "messages:send"
                     *       ],
                     *       "token_expires_at": "2026-11-23T11:00:00.000Z",
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MessagingConnection"];
                };
            };
            /** @description The state is unknown, used or expired (`invalid_state`), or the query is malformed (`invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>… */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_state",
                     *         "message": "The state is unknown, already used or expired.",
                     *         "docs": "https://purser.example/docs/errors#invalid_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description JSON only: access was declined at the provider (`messaging_access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No messaging provider is configured on this server (`messaging_not_configured`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The provider failed the code exchange (`messaging_provider_error`); nothing was stored. */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>… */
                    "text/html": string;
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "messaging_provider_error",
                     *         "message": "The provider did not complete it.",
                     *         "docs": "https://purser.example/docs/errors#messaging_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getMessagingConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "messaging_connection",
                     *       "connected": true,
                     *       "provider_organization_ids": [
                     *         "porg_8Hk2"
                     *       ],
                     *       "scopes": [
                     *         "messages:send"
                     *       ],
                     *       "token_expires_at": "2026-11-23T11:00:00.000Z",
                     *       "created_at": "2026-11-23T10:00:00.000Z",
                     *       "updated_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MessagingConnection"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection for this organization and mode, or the provider refused its refresh (`not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    deleteMessagingConnection: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The connection is gone; links go through the default channel again. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "messaging_connection",
                     *       "deleted": true
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        object: "messaging_connection";
                        /** @enum {boolean} */
                        deleted: true;
                    };
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No connection for this organization and mode (`not_found`), or no provider is configured on this server (`messaging_not_configured`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_reused",
                     *         "message": "This Idempotency-Key was first used with another request; use a new key.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_reused",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The provider could not be reached to revoke; nothing changed (`messaging_provider_error`). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_provider_error",
                     *         "message": "The code could not be sent; try again.",
                     *         "docs": "https://purser.example/docs/errors#auth_provider_error",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    createMerchantLinkSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes the request safe to retry: the first answer (2xx or 4xx) is kept 24 hours for the credential that sent it (the client, or the API key), the method and the path, and replayed, with `Idempotent-Replayed: true`, to a retry with the same key and body. The same key with another body is `422 idempotency_key_reused`; while the first runs, `409 idempotency_key_in_use`.
                 * @example order-4711-attempt-1
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "merchant": "teashop",
                 *       "return_url": "https://platform.example/linked",
                 *       "state": "opaque-7"
                 *     }
                 */
                "application/json": {
                    /** @description The merchant’s slug */
                    merchant: string;
                    return_url: string;
                    state?: string;
                };
            };
        };
        responses: {
            /** @description The open session and its page. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "merchant_link_session",
                     *       "id": "mls_4Tq8NmK2pLr7SvWxYz01",
                     *       "url": "https://purser.example/merchant-accounts/mlt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g",
                     *       "status": "open",
                     *       "user_id": "usr_7Hk2LmN4pQr6StUv",
                     *       "merchant": "teashop",
                     *       "state": "opaque-7",
                     *       "return_url": "https://platform.example/linked",
                     *       "merchant_account_id": null,
                     *       "livemode": true,
                     *       "expires_at": "2026-11-23T11:00:00.000Z",
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MerchantLinkSession"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode, or no such merchant. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description A request with this Idempotency-Key is still running (`idempotency_key_in_use`); retry after `Retry-After`. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "idempotency_key_in_use",
                     *         "message": "A request with this Idempotency-Key is still running; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#idempotency_key_in_use",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The merchant does not support account linking (`merchant_linking_unsupported`). Or: The Idempotency-Key was first used with another body (`idempotency_key_reused`); use a new key. */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "document_unreadable",
                     *         "message": "The photo could not be read; retake it in good light.",
                     *         "docs": "https://purser.example/docs/errors#document_unreadable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getMerchantLinkSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "merchant_link_session",
                     *       "id": "mls_4Tq8NmK2pLr7SvWxYz01",
                     *       "url": "https://purser.example/merchant-accounts/mlt_8kQ2mN4pR6sT8uV0wX2yZ4aB6cD8eF0g",
                     *       "status": "open",
                     *       "user_id": "usr_7Hk2LmN4pQr6StUv",
                     *       "merchant": "teashop",
                     *       "state": "opaque-7",
                     *       "return_url": "https://platform.example/linked",
                     *       "merchant_account_id": null,
                     *       "livemode": true,
                     *       "expires_at": "2026-11-23T11:00:00.000Z",
                     *       "completed_at": null,
                     *       "created_at": "2026-11-23T10:00:00.000Z"
                     *     }
                     */
                    "application/json": components["schemas"]["MerchantLinkSession"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such object for the calling organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    listMerchantAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The linked accounts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "object": "list",
                     *       "data": [
                     *         {
                     *           "object": "merchant_account",
                     *           "id": "macct_9Xk2LmN4pQr6StUvWx01",
                     *           "user_id": "usr_7Hk2LmN4pQr6StUv",
                     *           "merchant": "teashop",
                     *           "merchant_account_ref": "cust_4821",
                     *           "scopes": [
                     *             "orders:write",
                     *             "profile"
                     *           ],
                     *           "livemode": true,
                     *           "connected_at": "2026-11-23T10:04:00.000Z",
                     *           "updated_at": "2026-11-23T10:04:00.000Z"
                     *         }
                     *       ],
                     *       "has_more": false
                     *     }
                     */
                    "application/json": components["schemas"]["MerchantAccountList"];
                };
            };
            /** @description The bearer credential is missing, unknown, expired or revoked (`unauthorized`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "access_denied",
                     *         "message": "The organization is suspended.",
                     *         "docs": "https://purser.example/docs/errors#access_denied",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No such user in this organization and mode. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    receiveMerchantOrderEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event was accepted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "received": true,
                     *       "request_id": "req_123"
                     *     }
                     */
                    "application/json": {
                        received: boolean;
                        request_id?: string;
                    };
                };
            };
            /** @description The signed body is not an ACP order event. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Merchant-Signature is missing, wrong or more than 5 minutes old (`invalid_signature`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No configured merchant has this slug. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "not_found",
                     *         "message": "No such object.",
                     *         "docs": "https://purser.example/docs/errors#not_found",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The order is still being placed (`order_not_placed`): send the event again shortly. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_kyc_state",
                     *         "message": "The verification is not in a status that takes this call.",
                     *         "docs": "https://purser.example/docs/errors#invalid_kyc_state",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    mcpMessage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description A JSON-RPC request or notification (or a batch of them). */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "jsonrpc": "2.0",
                 *       "id": 1,
                 *       "method": "tools/call",
                 *       "params": {
                 *         "name": "whoami",
                 *         "arguments": {}
                 *       }
                 *     }
                 */
                "application/json": {
                    /** @enum {string} */
                    jsonrpc: "2.0";
                    id?: string | number;
                    method: string;
                    params?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description The JSON-RPC response. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "jsonrpc": "2.0",
                     *       "id": 1,
                     *       "result": {
                     *         "content": [
                     *           {
                     *             "type": "text",
                     *             "text": "Connected as user usr_3Fk9LmN2pQr7StUv (ada@example.com)."
                     *           }
                     *         ],
                     *         "structuredContent": {
                     *           "user": {
                     *             "id": "usr_3Fk9LmN2pQr7StUv"
                     *           }
                     *         }
                     *       }
                     *     }
                     */
                    "application/json": {
                        /** @enum {string} */
                        jsonrpc: "2.0";
                        id: string | number | null;
                        result?: {
                            [key: string]: unknown;
                        };
                        error?: {
                            code: number;
                            message: string;
                            data?: unknown;
                        };
                    };
                };
            };
            /** @description Notifications and responses only: accepted, no body. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description No bearer, or not a live connection/OAuth token for this resource (`unauthorized`); the `WWW-Authenticate` challenge names the protected-resource metadata. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unauthorized",
                     *         "message": "A valid platform access token is required.",
                     *         "docs": "https://purser.example/docs/errors#unauthorized",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The Origin is not accepted (`origin_not_allowed`), or the organization is suspended (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "origin_not_allowed",
                     *         "message": "Requests from this Origin are not accepted by the tool server.",
                     *         "docs": "https://purser.example/docs/errors#origin_not_allowed",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "payload_too_large",
                     *         "message": "The request body is too large.",
                     *         "docs": "https://purser.example/docs/errors#payload_too_large",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "unsupported_media_type",
                     *         "message": "Send the body as application/json.",
                     *         "docs": "https://purser.example/docs/errors#unsupported_media_type",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
            /** @description Temporarily unavailable (`auth_unavailable`); retry after `Retry-After` seconds. */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "auth_unavailable",
                     *         "message": "Authentication is temporarily unavailable; retry shortly.",
                     *         "docs": "https://purser.example/docs/errors#auth_unavailable",
                     *         "field_errors": {},
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getAuthorizationServerMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "issuer": "https://purser.example",
                     *       "authorization_endpoint": "https://purser.example/authorize",
                     *       "token_endpoint": "https://purser.example/token",
                     *       "registration_endpoint": "https://purser.example/register",
                     *       "revocation_endpoint": "https://purser.example/revoke",
                     *       "scopes_supported": [
                     *         "purser:tools",
                     *         "purser:spend"
                     *       ],
                     *       "response_types_supported": [
                     *         "code"
                     *       ],
                     *       "response_modes_supported": [
                     *         "query"
                     *       ],
                     *       "grant_types_supported": [
                     *         "authorization_code",
                     *         "refresh_token"
                     *       ],
                     *       "token_endpoint_auth_methods_supported": [
                     *         "none",
                     *         "client_secret_post",
                     *         "client_secret_basic"
                     *       ],
                     *       "revocation_endpoint_auth_methods_supported": [
                     *         "none",
                     *         "client_secret_post",
                     *         "client_secret_basic"
                     *       ],
                     *       "code_challenge_methods_supported": [
                     *         "S256"
                     *       ],
                     *       "authorization_response_iss_parameter_supported": true,
                     *       "client_id_metadata_document_supported": true,
                     *       "service_documentation": "https://purser.example/docs"
                     *     }
                     */
                    "application/json": components["schemas"]["AuthorizationServerMetadata"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    getProtectedResourceMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metadata document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "resource": "https://purser.example/mcp",
                     *       "authorization_servers": [
                     *         "https://purser.example"
                     *       ],
                     *       "scopes_supported": [
                     *         "purser:tools",
                     *         "purser:spend"
                     *       ],
                     *       "bearer_methods_supported": [
                     *         "header"
                     *       ],
                     *       "resource_name": "Purser tools",
                     *       "resource_documentation": "https://purser.example/docs"
                     *     }
                     */
                    "application/json": components["schemas"]["ProtectedResourceMetadata"];
                };
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    authorize: {
        parameters: {
            query?: {
                response_type?: string;
                client_id?: string;
                redirect_uri?: string;
                code_challenge?: string;
                code_challenge_method?: string;
                resource?: string;
                scope?: string;
                state?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sign-in page (HTML). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html>… */
                    "text/html": string;
                };
            };
            /** @description Error redirect to the client (`error`, `error_description`, `state`, `iss`). */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is invalid; `error.code` says how (`invalid_request` names each bad field in `field_errors`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": {
                     *         "code": "invalid_request",
                     *         "message": "Invalid email.",
                     *         "docs": "https://purser.example/docs/errors#invalid_request",
                     *         "field_errors": {
                     *           "email": "must be a valid email"
                     *         },
                     *         "warnings": []
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorBody"];
                };
            };
        };
    };
    exchangeUserToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "grant_type": "authorization_code",
                 *       "code": "oac_4kQ9mZ2xV7bN3cT8wR5yH1jL6pD0sF2g",
                 *       "redirect_uri": "https://app.example/callback",
                 *       "code_verifier": "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
                 *       "resource": "https://purser.example/mcp",
                 *       "client_id": "cli_3kTg7xQm2vN8pR4w"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    /** @description `authorization_code` or `refresh_token`. */
                    grant_type: string;
                    code?: string;
                    redirect_uri?: string;
                    code_verifier?: string;
                    refresh_token?: string;
                    /** @description The tool server, `{mcp_url}/mcp`. */
                    resource: string;
                    client_id?: string;
                    client_secret?: string;
                };
            };
        };
        responses: {
            /** @description The token pair; the access token is the bearer for the tool server. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "access_token": "cat_Xy7kQ2mN9vB4wL6tR8sJ3hF5gD1cZ0aE",
                     *       "refresh_token": "crt_Pq3wE8rT1yU6iO4pA9sD2fG7hJ5kL0zX",
                     *       "token_type": "Bearer",
                     *       "expires_in": 3600,
                     *       "scope": "purser:tools"
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthTokenPair"];
                };
            };
            /** @description `invalid_request`, `invalid_grant` (code or refresh token invalid, expired, used, or PKCE failed), `invalid_target` (resource is not the tool server), `unsupported_grant_type`, `unauthorized_client`. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_grant",
                     *       "error_description": "code_verifier does not match the code_challenge."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Unknown client, bad credentials, or a production client without an active subscription (`invalid_client`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Client authentication failed."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "payload_too_large",
                     *       "error_description": "The request body is too large."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_media_type",
                     *       "error_description": "Send the body as application/json."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Too many requests (`rate_limited`). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate_limited",
                     *       "error_description": "Too many requests; retry later."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
        };
    };
    registerClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "redirect_uris": [
                 *         "http://127.0.0.1/callback"
                 *       ],
                 *       "client_name": "My assistant",
                 *       "token_endpoint_auth_method": "none"
                 *     }
                 */
                "application/json": {
                    redirect_uris: string[];
                    client_name?: string;
                    grant_types?: string[];
                    response_types?: string[];
                    token_endpoint_auth_method?: string;
                    scope?: string;
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description The registered client. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "client_id": "cli_8hJ2kL5mN7pQ9rS1",
                     *       "client_id_issued_at": 1767225600,
                     *       "client_name": "My assistant",
                     *       "redirect_uris": [
                     *         "http://127.0.0.1/callback"
                     *       ],
                     *       "grant_types": [
                     *         "authorization_code",
                     *         "refresh_token"
                     *       ],
                     *       "response_types": [
                     *         "code"
                     *       ],
                     *       "token_endpoint_auth_method": "none",
                     *       "scope": "purser:tools"
                     *     }
                     */
                    "application/json": components["schemas"]["ClientRegistration"];
                };
            };
            /** @description Bad metadata (`invalid_client_metadata`) or redirect URIs (`invalid_redirect_uri`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_redirect_uri",
                     *       "error_description": "ftp://x must be an https, loopback http or private-use scheme URI."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Dynamic registration is not enabled (`access_denied`). */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "access_denied",
                     *       "error_description": "Dynamic client registration is not enabled on this server."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "payload_too_large",
                     *       "error_description": "The request body is too large."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_media_type",
                     *       "error_description": "Send the body as application/json."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Too many requests (`rate_limited`). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate_limited",
                     *       "error_description": "Too many requests; retry later."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
        };
    };
    revokeUserToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "token": "crt_Pq3wE8rT1yU6iO4pA9sD2fG7hJ5kL0zX",
                 *       "token_type_hint": "refresh_token",
                 *       "client_id": "cli_3kTg7xQm2vN8pR4w"
                 *     }
                 */
                "application/x-www-form-urlencoded": {
                    token: string;
                    token_type_hint?: string;
                    client_id?: string;
                    client_secret?: string;
                };
            };
        };
        responses: {
            /** @description Revoked, or the token was unknown (RFC 7009 §2.2). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /** @example {} */
                    "application/json": Record<string, never>;
                };
            };
            /** @description `token` is missing (`invalid_request`). */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_request",
                     *       "error_description": "token is required."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Client authentication failed (`invalid_client`). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "invalid_client",
                     *       "error_description": "Client authentication failed."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is larger than the limit (`payload_too_large`). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "payload_too_large",
                     *       "error_description": "The request body is too large."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description The body is not `application/json` (`unsupported_media_type`). */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "unsupported_media_type",
                     *       "error_description": "Send the body as application/json."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
            /** @description Too many requests (`rate_limited`). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": "rate_limited",
                     *       "error_description": "Too many requests; retry later."
                     *     }
                     */
                    "application/json": components["schemas"]["OAuthErrorBody"];
                };
            };
        };
    };
}
