import { postWebhook } from '../../src/domains/events/sender.ts';
import { envelopeJson, signatureHeaders } from '../../src/domains/events/signing.ts';

const now = () => performance.timeOrigin + performance.now();

/**
 * The webhook benchmarks' ceiling: the same payloads, signing and HTTP client as Purser's
 * deliveries, with no storage. Each call sends one and resolves with its event id and start time.
 */
export function bareSender(url: URL, secret: string, data: Record<string, unknown>) {
  const destination = { address: '127.0.0.1', family: 4 as const };
  let sequence = 0;
  return async (): Promise<{ id: string; at: number }> => {
    const at = now();
    const id = `evt_bare${sequence++}`;
    const body = envelopeJson({
      id,
      type: 'card.updated',
      created_at: Date.now(),
      livemode: 0,
      data: JSON.stringify(data),
    });
    // As Purser builds them (events/delivery.ts): added to the signature's object, not spread.
    const headers = Object.assign(signatureHeaders(secret, body, Math.floor(Date.now() / 1000)), {
      'Service-Event-Id': id,
      'Service-Delivery-Attempt': '1',
    });
    // As Purser does for a loopback receiver: its answer's body is not kept.
    const result = await postWebhook(url, destination, headers, body, 10_000, false);
    if (!result.ok) throw new Error(`bare send failed: ${result.error}`);
    return { id, at };
  };
}

/** Deliveries per second of `events` bare sends, `concurrency` at once, from the first send to the last arrival. */
export async function bareRate(
  send: () => Promise<{ id: string }>,
  waitForArrivals: (ids: Set<string>, seen: Map<string, number>) => Promise<void>,
  events: number,
  concurrency: number,
): Promise<number> {
  const ids = new Set<string>();
  const started = now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < events) {
        next++;
        ids.add((await send()).id);
      }
    }),
  );
  const seen = new Map<string, number>();
  await waitForArrivals(ids, seen);
  return ids.size / ((Math.max(...seen.values()) - started) / 1000);
}
