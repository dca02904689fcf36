import type { Executor } from '../../db/index.ts';

/** The transactional outbox of the events domain (`ctx.events`): events commit with the change. */
export interface EventEmitter {
  emit(
    trx: Executor,
    event: { organizationId: string; livemode: boolean; type: string; data: Record<string, unknown> },
  ): Promise<{ id: string }>;
  /** Several events of one owner, in order, written together (`EventService.emitAll`). */
  emitAll(
    trx: Executor,
    owner: { organizationId: string; livemode: boolean },
    events: { type: string; data: Record<string, unknown> }[],
  ): Promise<{ id: string }[]>;
}
