import { Redis } from 'ioredis';
import type { DependencyState, RedisState } from './dependencies.ts';

/** A command Redis has not answered by then fails, and the connection is opened anew. */
const COMMAND_TIMEOUT_MS = 500;
/** How long opening a connection may take. */
const CONNECT_TIMEOUT_MS = 2_000;
/** The longest wait between reconnection attempts (they start at 100 ms and double). */
const MAX_RECONNECT_WAIT_MS = 2_000;

/**
 * The process's connection to Redis (`REDIS_URL`), kept open: reconnected for as long as the
 * process runs. Callers use it only while it is `ready` and fall back to something local otherwise
 * (rate limits: each process's own), so a Redis that is down or unreachable never holds a request:
 * commands are not queued while disconnected, and one left unanswered fails after 500 ms. Its state
 * goes to `state` (/readyz, /metrics, one log line per change); ioredis's own error output is
 * silenced by listening.
 */
export class RedisLink {
  readonly client: Redis;
  private closing = false;

  constructor(
    url: string,
    private readonly state: DependencyState<RedisState>,
  ) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(100 * 2 ** (attempt - 1), MAX_RECONNECT_WAIT_MS),
    });
    this.client.on('ready', () => this.state.set('ok'));
    this.client.on('error', (error: Error) => this.degraded(error.message));
    this.client.on('close', () => this.degraded('connection closed'));
  }

  /**
   * Resolves when the first connection is ready, or has failed, or after the connect timeout: a
   * process starts with the shared limits when Redis is there, and without waiting when it is not.
   */
  firstConnection(): Promise<void> {
    if (this.client.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.client.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, CONNECT_TIMEOUT_MS);
      this.client.once('ready', done).once('error', done);
    });
  }

  /** Connected and past the ready check: commands can be sent. */
  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /**
   * A command failed: Redis is degraded until the connection is ready again. One that timed out
   * means a connection that no longer answers (a cut network keeps it open): it is dropped and
   * opened anew, so that callers fall back at once instead of each waiting out the timeout.
   */
  failed(error: unknown): void {
    const message = (error as Error).message ?? String(error);
    this.degraded(message);
    if (/timed out/i.test(message) && this.client.status === 'ready') this.client.disconnect(true);
  }

  close(): void {
    this.closing = true;
    this.client.disconnect();
  }

  private degraded(reason: string): void {
    if (!this.closing) this.state.set('degraded', { reason });
  }
}
