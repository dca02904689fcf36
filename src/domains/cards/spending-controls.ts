import type { Clock } from '../../core/clock.ts';
import { invalid } from '../../core/refusal.ts';
import { livemodeColumn, type Tenant } from '../../core/tenant.ts';
import type { Db, Executor } from '../../db/index.ts';
import {
  type ControlledCharge,
  type ControlVerdict,
  controlsProblems,
  EMPTY_CONTROLS,
  normalizeControls,
  parseControls,
  refusalOf,
  type SpendingControls,
  type SpendingControlsInput,
} from './controls.ts';
import type { Card } from './service.ts';
import * as store from './store.ts';

/** Whose controls: the user's, in an organization and mode. */
type Owner = Pick<Card, 'organization_id' | 'livemode' | 'user_id'>;

/** The controls an authorization decides on: the card's and its user's (null: none set). */
export interface ChargeControls {
  card: SpendingControls | null;
  user: SpendingControls | null;
}

/**
 * Spending controls where they are kept (cards/controls.ts has the rules): on the card row and in
 * `user_spending_controls`, and what the engine asks of them for a charge.
 */
export class SpendingControlsBook {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Input checked and normalized for storage (JSON), or `400 invalid_request` naming each bad field. */
  stored(input: SpendingControlsInput, field = 'spending_controls'): string {
    const problems = controlsProblems(input, field ? `${field}.` : '');
    if (problems) throw invalid('The spending controls are not valid.', problems);
    return JSON.stringify(normalizeControls(input));
  }

  /** A card's controls after a change of some of their lists: the lists given replace, the others stay. */
  changed(card: Card, input: SpendingControlsInput): string {
    return this.stored({ ...(parseControls(card.spending_controls) ?? EMPTY_CONTROLS), ...input });
  }

  async forUser(scope: Tenant, userId: string) {
    const row = await store.userControls(this.db, userId, false);
    const mine = row && row.organization_id === scope.organizationId && row.livemode === livemodeOf(scope);
    return userControlsObject(userId, mine ? parseControls(row.controls) : null);
  }

  /** Replaces the user's controls (PUT): what is left out is empty. */
  async setForUser(scope: Tenant, userId: string, input: SpendingControlsInput) {
    const controls = this.stored(input, '');
    const now = this.clock.now();
    await store.saveUserControls(this.db, {
      user_id: userId,
      organization_id: scope.organizationId,
      livemode: livemodeOf(scope),
      controls,
      created_at: now,
      updated_at: now,
    });
    return userControlsObject(userId, parseControls(controls));
  }

  /**
   * The controls of a charge on a card locked with its user's controls row (`CardService.lockForCharge`,
   * PostgreSQL): what each limit has spent is then read by one authorization at a time.
   */
  forCharge(card: Card, userControls: string | null): ChargeControls {
    return { card: parseControls(card.spending_controls), user: parseControls(userControls) };
  }

  /**
   * Whether the user's controls, as they stand (unlocked), refuse a charge still to come: a check
   * before any money moves (`/buy`); the engine decides again at the charge.
   */
  async refusalAhead(owner: Owner, charge: ControlledCharge): Promise<ControlVerdict | null> {
    const row = await store.userControls(this.db, owner.user_id, false);
    return row ? this.userRefusal(this.db, owner, parseControls(row.controls), charge) : null;
  }

  /** The first control that refuses the charge: the card's, then the user's; null when both pass. */
  async refusal(
    exec: Executor,
    card: Pick<Card, 'id' | 'organization_id' | 'livemode' | 'user_id'>,
    controls: ChargeControls,
    charge: ControlledCharge,
  ): Promise<ControlVerdict | null> {
    const now = this.clock.now();
    if (controls.card) {
      const verdict = await refusalOf('card', controls.card, charge, now, ({ since, categories }) =>
        store.spentSince(
          exec,
          { organizationId: card.organization_id, livemode: card.livemode, cardId: card.id },
          since,
          categories,
        ),
      );
      if (verdict) return verdict;
    }
    return controls.user ? this.userRefusal(exec, card, controls.user, charge) : null;
  }

  private userRefusal(
    exec: Executor,
    owner: Owner,
    controls: SpendingControls | null,
    charge: ControlledCharge,
  ) {
    if (!controls) return null;
    const user = { organizationId: owner.organization_id, livemode: owner.livemode, userId: owner.user_id };
    return refusalOf('user', controls, charge, this.clock.now(), ({ since, categories }) =>
      store.spentSince(exec, user, since, categories),
    );
  }
}

function livemodeOf(scope: Tenant): number {
  return livemodeColumn(scope.livemode);
}

/** `GET|PUT /api/v2/users/{user_id}/spending_controls`. */
export function userControlsObject(userId: string, controls: SpendingControls | null) {
  return { object: 'spending_controls' as const, user_id: userId, ...(controls ?? EMPTY_CONTROLS) };
}
