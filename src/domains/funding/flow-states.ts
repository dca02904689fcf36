import { rowFor } from '../../core/state-table.ts';
import type { CardFlowStatus } from '../../db/schema.ts';

/**
 * The company-funded card flow's state machine (spec §3 "Company-funded card flow"), as one table.
 * A flow starts in `started`, `awaiting_collection` (an `ack_required` flow) or `failed` (the pool
 * could not cover it); every later move is a row here, taken by `CardFlows` (flow.ts) in one write
 * transaction that locks the flow and moves it only if it still stands at the row's `from`.
 */

export type FlowMove =
  /** The platform collected the funds (v1 acknowledgement, `collection_succeeded`). */
  | 'collection_succeeded'
  /** The platform could not collect them (`collection_failed`). */
  | 'collection_failed'
  /** The acknowledgement deadline passed (the worker, or an acknowledgement that came late). */
  | 'ack_timed_out'
  /** The worker approves a flow that needs no acknowledgement. */
  | 'approve'
  /** The transfer is submitted on the chain. */
  | 'initiate'
  /** The chain confirmed it: the holds post to the user. */
  | 'confirm'
  /** The chain reverted it. */
  | 'chain_reverted'
  /** The card is issued from the transferred funds. */
  | 'mint'
  /** The card cannot be issued: the funds stay in the user's wallet. */
  | 'mint_failed';

export interface FlowTransition {
  from: CardFlowStatus;
  move: FlowMove;
  to: CardFlowStatus;
  /** What the move writes to the event log. */
  events: string;
}

export const FLOW_TRANSITIONS: readonly FlowTransition[] = [
  {
    from: 'awaiting_collection',
    move: 'collection_succeeded',
    to: 'approved',
    events: 'transfer.approved (api)',
  },
  {
    from: 'awaiting_collection',
    move: 'collection_failed',
    to: 'failed',
    events: 'transfer.failed (ack_denied)',
  },
  {
    from: 'awaiting_collection',
    move: 'ack_timed_out',
    to: 'failed',
    events: 'transfer.failed (ack_timeout)',
  },
  { from: 'started', move: 'approve', to: 'approved', events: 'transfer.approved (auto)' },
  { from: 'approved', move: 'initiate', to: 'initiated', events: 'transfer.initiated' },
  { from: 'initiated', move: 'confirm', to: 'completed', events: 'transfer.completed' },
  { from: 'initiated', move: 'chain_reverted', to: 'failed', events: 'transfer.failed (transfer_failed)' },
  { from: 'completed', move: 'mint', to: 'card_created', events: 'card.created' },
  { from: 'completed', move: 'mint_failed', to: 'card_failed', events: 'card_flow.failed' },
];

/** The table's row for `move` (every move has exactly one). */
export const flowTransition = (move: FlowMove): FlowTransition => rowFor(FLOW_TRANSITIONS, move);
