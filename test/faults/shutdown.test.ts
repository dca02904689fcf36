import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { exited, startServer } from '../cli/process.ts';
import { useCrashApp } from '../helpers/crash.ts';
import { jsonLines, until } from './helpers.ts';

/** A request whose body is sent in two halves, so that it is in flight for as long as the test wants. */
interface Pending {
  finish(): void;
  answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
}

/**
 * Issue 25: SIGTERM drops nothing. `/readyz` says not ready at once, the listener keeps serving
 * for the drain, then closes; requests in flight, those sent before the signal and those sent during
 * the drain, all finish with a complete answer; the process exits 0.
 */
describe('SIGTERM', () => {
  const f = useCrashApp('Shutdown', {
    LOG_LEVEL: 'info',
    TOKEN_RATE_LIMIT: '100000',
    // Long enough for the test to send its second half of requests while the process drains.
    SHUTDOWN_DRAIN_SECONDS: '3',
  });

  /** A token request (form body) on a connection of its own, its body held back halfway. */
  const startRequest = (url: string): Pending => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: f.org.sandbox.client_id,
      client_secret: f.org.sandbox.client_secret,
    }).toString();
    const half = Math.floor(body.length / 2);
    const request = http.request(`${url}/api/v2/oauth/token`, {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(body.length),
      },
    });
    const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
      (resolve, reject) => {
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            text += chunk;
          });
          response.on('error', reject);
          response.on('end', () =>
            resolve({ status: response.statusCode!, headers: response.headers, body: text }),
          );
        });
      },
    );
    request.write(body.slice(0, half));
    return { finish: () => request.end(body.slice(half)), answer };
  };

  /** Token requests the server has begun (it logs each as it arrives). */
  const tokenRequestsSeen = (output: string) =>
    jsonLines(output).filter(
      (line) => line.msg === 'incoming request' && line.req?.url === '/api/v2/oauth/token',
    ).length;

  /** Whether a new connection is still accepted (`/healthz` on a connection of its own). */
  const accepting = (url: string) =>
    new Promise<boolean>((resolve) => {
      http
        .get(`${url}/healthz`, { agent: false }, (response) => {
          response.resume();
          resolve(true);
        })
        .on('error', () => resolve(false));
    });

  it('40 requests across a SIGTERM: not ready first, no connection reset, every answer complete, exit 0', async () => {
    const server = await startServer(f.env);
    const before = Array.from({ length: 20 }, () => startRequest(server.url));
    // Each of those is on the server's side before the signal: its connection was accepted.
    await until(() => tokenRequestsSeen(server.output()) === 20);

    server.child.kill('SIGTERM');
    // Not ready at once, while still serving.
    await until(async () => {
      const response = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
      return response.status === 503 && (await response.json()).status === 'stopping';
    });
    const during = Array.from({ length: 20 }, () => startRequest(server.url));
    await until(() => tokenRequestsSeen(server.output()) === 40);

    // The drain ends: the listener closes while all 40 requests are still waiting for their bodies.
    await until(async () => !(await accepting(server.url)));
    for (const request of [...before, ...during]) request.finish();
    const answers = await Promise.all([...before, ...during].map((request) => request.answer));

    expect(answers).toHaveLength(40);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({
        access_token: expect.any(String),
        token_type: 'Bearer',
      });
      expect(answer.headers.connection).toBe('close');
    }
    expect(await exited(server.child)).toBe(0);
  }, 120_000);

  it('during the drain, every answer closes its connection: to a request sent before the signal and to one sent after', async () => {
    const server = await startServer(f.env);
    const before = startRequest(server.url);
    await until(() => tokenRequestsSeen(server.output()) === 1);

    server.child.kill('SIGTERM');
    await until(async () => {
      const response = await fetch(`${server.url}/readyz`, { headers: { connection: 'close' } });
      return response.status === 503;
    });
    // Both answered while the listener still serves (the drain lasts 3 s).
    before.finish();
    const sentBefore = await before.answer;
    const sentAfter = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
      const agent = new http.Agent({ keepAlive: true });
      http
        .get(`${server.url}/healthz`, { agent }, (response) => {
          response.resume();
          response.on('end', () => {
            agent.destroy();
            resolve(response.headers);
          });
        })
        .on('error', reject);
    });
    expect(await accepting(server.url)).toBe(true);

    expect(sentBefore.status).toBe(200);
    expect(sentBefore.headers.connection).toBe('close');
    expect(sentAfter.connection).toBe('close');
    expect(await exited(server.child)).toBe(0);
  }, 120_000);
});
