import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../core/clock.ts';
import { exchange } from '../../core/http/client.ts';
import {
  type DestinationPolicy,
  DestinationRefused,
  type ResolvedDestination,
  resolveDestination,
} from '../../core/http/ssrf.ts';
import { newSecret } from '../../core/ids.ts';
import type { Tenant } from '../../core/tenant.ts';
import type { EventService, TailedEvent } from './service.ts';
import { ATTEMPT_HEADER, EVENT_ID_HEADER, signatureHeaders } from './signing.ts';
import type { Position } from './store.ts';

/**
 * A transaction may commit after one that started later: every poll looks this far back behind
 * the newest event it has seen, and skips the ids it has already shown.
 */
const LATE_COMMIT_MS = 5_000;
const PAGE = 500;

export interface TailOptions {
  type?: string[];
  /** Events created from this time on (ms) are tailed: taken before announcing that it listens. */
  fromMs: number;
  pollIntervalMs: number;
  signal: AbortSignal;
  onEvent(event: TailedEvent): Promise<void>;
}

/**
 * Calls `onEvent` once for every event of `owner` created from `options.fromMs` on, oldest first,
 * until the signal aborts: what `purser events listen` prints and forwards. A development tool that
 * reads the events table; it neither creates an endpoint nor touches deliveries.
 */
export async function tailEvents(events: EventService, owner: Tenant, options: TailOptions) {
  const started = options.fromMs;
  let newest = started;
  /** Ids already shown, with their creation time, back to the look-back window. */
  const shown = new Map<string, number>();
  while (!options.signal.aborted) {
    const fromMs = Math.max(started, newest - LATE_COMMIT_MS);
    let position: Position | null = null;
    for (;;) {
      const page = await events.eventsFrom(owner, { type: options.type, fromMs, position, limit: PAGE });
      for (const tailed of page) {
        if (shown.has(tailed.event.id)) continue;
        shown.set(tailed.event.id, tailed.position.created_at);
        newest = Math.max(newest, tailed.position.created_at);
        await options.onEvent(tailed);
      }
      if (page.length < PAGE) break;
      position = (page.at(-1) as TailedEvent).position;
    }
    for (const [id, createdAt] of shown) if (createdAt < newest - LATE_COMMIT_MS) shown.delete(id);
    await sleep(options.pollIntervalMs, undefined, { signal: options.signal }).catch(() => {});
  }
}

/**
 * Forwards tailed events to a URL the developer named, signed like a delivery with a secret of this
 * session. It goes through the guarded client as every outbound request does: the developer's own
 * machine and network may be reached (that is what the command is for), a cloud metadata or reserved
 * address may not.
 */
export class Forwarder {
  readonly secret = newSecret('whsec_');
  private static readonly policy: DestinationPolicy = {
    livemode: false,
    allowPrivate: true,
    allowedPrivateHosts: [],
  };

  constructor(
    private readonly url: URL,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  /** The receiver's status code, or the reason nothing came back. */
  async forward(tailed: TailedEvent): Promise<number | string> {
    let destination: ResolvedDestination;
    try {
      destination = await resolveDestination(this.url, Forwarder.policy);
    } catch (error) {
      if (error instanceof DestinationRefused) return `refused: ${error.message}`;
      throw error;
    }
    const result = await exchange(
      this.url,
      destination,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signatureHeaders(this.secret, tailed.body, Math.floor(this.clock.now() / 1000)),
          [EVENT_ID_HEADER]: tailed.event.id,
          [ATTEMPT_HEADER]: '1',
        },
        body: tailed.body,
      },
      // Only the status matters: the receiver's body is not read past its first bytes.
      { timeoutMs: this.timeoutMs, read: { maxBytes: 1024, beyond: 'keep' } },
    );
    if (result.kind === 'answer') return result.status;
    return result.error.startsWith('timeout') ? 'timeout' : `error: ${result.error}`;
  }
}
