/**
 * bench/cards --platform-endpoint: authorizations decided by the platform (docs/cards.md "Real-time
 * authorization"). A local platform answers `{approved: true}` after 5 ms; charges arrive at a fixed
 * 200 per second through `POST /api/v2/simulate/authorize`, and the decision latency (from when each
 * was due to its answer, the platform's 5 ms included) is reported as p50/p99, target p99 < 20 ms.
 * Every decision must be the platform's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fixedRate } from '../fixed-rate.ts';
import { startServers } from '../servers-process.ts';

const RATE = 200;
const PLATFORM_DELAY_MS = 5;
const TARGET_P99_MS = 20;

export async function benchPlatformEndpoint(options: { seconds: number }): Promise<void> {
  let asked = 0;
  const platform = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      asked++;
      setTimeout(
        () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"approved":true}'),
        PLATFORM_DELAY_MS,
      );
    });
  });
  platform.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  const platformUrl = `http://127.0.0.1:${(platform.address() as AddressInfo).port}/authorize`;

  // The platform is on loopback: the servers' process may reach private destinations (sandbox).
  process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS = 'true';
  const servers = await startServers<{ purserUrl: string; token: string; cardIds: string[] }>(
    new URL('./run.ts', import.meta.url).href,
  );
  const { info } = servers;
  const headers = { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' };
  const set = await fetch(`${info.purserUrl}/api/v2/authorization_endpoint`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ url: platformUrl, timeout_ms: 1500, on_timeout: 'decline' }),
  });
  if (set.status !== 201)
    throw new Error(`PUT /api/v2/authorization_endpoint: ${set.status} ${await set.text()}`);

  const body = (i: number) =>
    JSON.stringify({
      card_id: info.cardIds[i % info.cardIds.length],
      amount_cents: 1,
      merchant: 'Bench Shop',
      mcc: '5411',
    });
  const run = async (seconds: number) =>
    fixedRate({
      url: `${info.purserUrl}/api/v2/simulate/authorize`,
      method: 'POST',
      headers,
      body,
      rate: RATE,
      seconds,
    });
  await run(1);
  const before = asked;
  const measured = await run(options.seconds * 2);
  const platformDecided = asked - before;
  const verified = await servers.stop();
  platform.close();

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `bench/cards --platform-endpoint  (SQLite, loopback, the platform answers in ${PLATFORM_DELAY_MS} ms)`,
  );
  console.log(
    `  at a fixed ${RATE}/s for ${options.seconds * 2}s: p50 ${ms(measured.p50)}  p99 ${ms(measured.p99)}  max ${ms(measured.max)}` +
      `  (${measured.rps.toFixed(0)} auth/s; target p99 < ${TARGET_P99_MS} ms: ${measured.p99 < TARGET_P99_MS ? 'met' : 'NOT MET'})`,
  );
  console.log(`  failed ${measured.failed}; the platform was asked ${platformDecided} times`);
  console.log(`  purser ledger verify after the run: ${verified === 0 ? 'ok' : 'FAILED'}`);
}
