import { Counter, Histogram, Registry } from 'prom-client';

/** What the worker's webhook attempts came to (`Worker.attempt`); `unrecorded`: the record failed. */
export type DeliveryOutcome = 'succeeded' | 'retrying' | 'failed' | 'cancelled' | 'lost' | 'unrecorded';

/** A card authorization's decision (`CardNetwork.authorize`); `error`: none was made (it threw). */
export type AuthorizationDecision = 'approved' | 'declined' | 'error';

/**
 * The counters the process's domains add to as they work, whatever its role: `/metrics` serves
 * them beside the HTTP metrics (web/operations.ts). One per process, made with its context.
 */
export class ProcessMetrics {
  readonly registry = new Registry();
  private readonly deliveries = new Counter({
    name: 'purser_webhook_deliveries_total',
    help: 'Webhook attempts this process made, by outcome (retrying: failed, another attempt is due; lost: the lease had passed to another worker; unrecorded: the outcome could not be written, the delivery is attempted again)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly authorizations = new Counter({
    name: 'purser_card_authorizations_total',
    help: 'Card authorizations this process decided, by decision (error: it failed before deciding)',
    labelNames: ['decision'] as const,
    registers: [this.registry],
  });
  private readonly authorizationLatency = new Histogram({
    name: 'purser_card_authorization_duration_seconds',
    help: 'How long deciding a card authorization took, by decision (the transaction included)',
    labelNames: ['decision'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  delivery(outcome: DeliveryOutcome): void {
    this.deliveries.inc({ outcome });
  }

  authorization(decision: AuthorizationDecision, seconds: number): void {
    this.authorizations.inc({ decision });
    this.authorizationLatency.observe({ decision }, seconds);
  }
}
