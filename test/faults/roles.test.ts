import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exited, purser, startServer } from '../cli/process.ts';
import { Receiver } from '../events/receiver.ts';
import { useCrashApp } from '../helpers/crash.ts';

/**
 * Issue 25: `purser serve --role api|worker|all`. The API role serves the API without a worker, the
 * worker role delivers without the API and answers `/healthz`, `/readyz` and `/metrics` on its own
 * `HEALTH_PORT`; both stop cleanly on SIGTERM.
 */
describe('process roles', () => {
  const f = useCrashApp('Roles', {
    LOG_LEVEL: 'info',
    SHUTDOWN_DRAIN_SECONDS: '0',
    WEBHOOK_POLL_INTERVAL_MS: '50',
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: 'true',
  });
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('refuses an unknown role', async () => {
    const result = await purser(['serve', '--role', 'everything'], f.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--role must be one of: api, worker, all');
  });

  it('api and worker apart: the API has no worker, the worker has its own health port, a test event crosses', async () => {
    const api = await startServer(f.env, ['serve', '--role', 'api']);
    f.children.push(api.child);
    const worker = await startServer({ ...f.env, HEALTH_PORT: '0' }, ['serve', '--role', 'worker']);
    f.children.push(worker.child);

    const apiMetrics = await fetch(`${api.url}/metrics`).then((r) => r.text());
    expect(apiMetrics).toContain('purser_http_requests_total');
    expect(apiMetrics).not.toContain('purser_worker_chore_lag_seconds');

    expect(await fetch(`${worker.url}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
    expect(await fetch(`${worker.url}/readyz`).then((r) => r.json())).toMatchObject({ status: 'ready' });
    const workerMetrics = await fetch(`${worker.url}/metrics`).then((r) => r.text());
    expect(workerMetrics).toMatch(/purser_worker_chore_lag_seconds\{chore="retention"\} \d/);
    expect(workerMetrics).toMatch(/purser_worker_chore_last_success_timestamp_seconds\{chore="retention"\}/);
    // The health port serves nothing else.
    expect((await fetch(`${worker.url}/api/v2`)).status).toBe(404);

    const headers = { authorization: `Bearer ${f.org.sandbox.api_key}`, 'content-type': 'application/json' };
    const endpoint = await fetch(`${api.url}/api/v1/webhook_endpoints`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: receiver.url, enabled_events: ['card.*'] }),
    }).then((r) => r.json());
    const sent = await fetch(`${api.url}/api/v1/webhook_endpoints/${endpoint.id}/test`, {
      method: 'POST',
      headers: { authorization: headers.authorization },
    });
    expect(sent.status).toBe(202);
    const { event_id: eventId } = await sent.json();
    await receiver.waitFor(1, 30_000);
    expect(receiver.eventIds()).toEqual([eventId]);

    api.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
    expect(await exited(api.child)).toBe(0);
    expect(await exited(worker.child)).toBe(0);
  }, 120_000);
});
