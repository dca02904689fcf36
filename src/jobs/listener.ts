import pg from 'pg';
import type { Config } from '../config.ts';

interface ListenerLog {
  info(fields: object, message: string): void;
  warn?(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** A lost LISTEN connection is opened again at most this often (the worker polls meanwhile). */
const RECONNECT_INTERVAL_MS = 5_000;

/**
 * PostgreSQL: a dedicated connection LISTENing on `channel`, calling `onNotify` for each
 * notification. Polling covers anything it misses, so losing it (the database restarted, the
 * session was terminated) costs latency only: it is logged once, and `reconnectIfLost` opens it again.
 */
export class NotificationListener {
  private client: pg.Client | null = null;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private closed = false;
  /** Set when a connection was lost, until one is open again (which is then logged). */
  private lost = false;
  /** Settles when the current connection attempt is over (either way). */
  connecting: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: Pick<Config, 'databaseUrl' | 'databasePool'>,
    private readonly channel: string,
    private readonly onNotify: () => void,
    private readonly log: ListenerLog,
  ) {}

  connect(): Promise<void> {
    this.lastAttempt = Date.now();
    this.connecting = this.open();
    return this.connecting;
  }

  /** Opens the connection again if it was lost, unless it was tried moments ago. */
  reconnectIfLost(): void {
    if (this.closed || this.client || Date.now() - this.lastAttempt < RECONNECT_INTERVAL_MS) return;
    void this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async open(): Promise<void> {
    const url = new URL(this.config.databaseUrl);
    url.searchParams.delete('schema');
    const client = new pg.Client({
      connectionString: url.toString(),
      connectionTimeoutMillis: this.config.databasePool.connectTimeoutMs,
      keepAlive: true,
      application_name: 'purser',
    });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      if (!this.closed) this.lost = true;
      if (!this.closed)
        (this.log.warn ?? this.log.error).call(
          this.log,
          { err: error ? String(error) : 'connection ended' },
          'LISTEN connection lost; polling until it is back',
        );
      void client.end().catch(() => {});
    };
    // Registered before connecting: an error event with no listener would end the process.
    client.on('error', onLost);
    try {
      await client.connect();
      client.on('notification', this.onNotify);
      client.on('end', () => onLost());
      await client.query(`LISTEN ${this.channel}`);
      if (this.closed) {
        await client.end();
        return;
      }
      this.client = client;
      if (this.lost) this.log.info({}, 'LISTEN connection open again');
      this.lost = false;
    } catch (error) {
      lost = true;
      await client.end().catch(() => {});
      if (!this.closed) this.log.error({ err: String(error) }, 'LISTEN unavailable; polling');
    }
  }
}
