import type { Executor } from '../../db/index.ts';

/** The transactional outbox of the events domain (`ctx.events`): events commit with the change. */
export interface EventEmitter {
  emit(
    trx: Executor,
    event: { organizationId: string; livemode: boolean; type: string; data: Record<string, unknown> },
  ): Promise<{ id: string }>;
}
