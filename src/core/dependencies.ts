/**
 * What this process knows of the services it depends on (the database, Redis) and of itself
 * (shutting down): what `/readyz` and `/metrics` report, and one log line each time a state changes,
 * never one per failed request.
 */

export interface StateLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** One dependency's state as this process last saw it; the log hears of changes only. */
export class DependencyState<State extends string> {
  private current: State;
  private changedAt = Date.now();
  /** Whether it has been healthy since the process started. */
  private wasHealthy: boolean;

  constructor(
    readonly name: string,
    initial: State,
    private readonly healthy: State,
    private readonly log: StateLog,
  ) {
    this.current = initial;
    this.wasHealthy = initial === healthy;
  }

  get state(): State {
    return this.current;
  }

  get ok(): boolean {
    return this.current === this.healthy;
  }

  /** Since when (ms since the epoch) the state is what it is. */
  get since(): number {
    return this.changedAt;
  }

  /**
   * Records the state; a change is logged once: warn when it leaves the healthy state, info when it
   * returns (not when it first gets there from where it started, such as `connecting`).
   */
  set(state: State, fields: object = {}): void {
    if (state === this.current) return;
    const previous = this.current;
    this.current = state;
    this.changedAt = Date.now();
    const line = { dependency: this.name, state, previous, ...fields };
    if (state !== this.healthy) this.log.warn(line, `${this.name} ${state}`);
    else if (this.wasHealthy) this.log.info(line, `${this.name} ${state} again`);
    this.wasHealthy ||= state === this.healthy;
  }
}

export type RedisState = 'ok' | 'connecting' | 'degraded' | 'off';

/** The dependencies and the lifecycle of one process. */
export class ProcessHealth {
  readonly database: DependencyState<'ok' | 'unavailable'>;
  /**
   * `off` when the process does not use Redis; `connecting` until it first connects; `degraded`
   * while it is lost and rate limits fall back to each process's own.
   */
  readonly redis: DependencyState<RedisState>;
  private stoppingSince: number | null = null;
  /**
   * False while a process that started without its database waits to apply the migrations: it
   * answers 503 to everything but its health endpoints until then.
   */
  migrated = true;

  constructor(log: StateLog, options: { redis: boolean }) {
    this.database = new DependencyState('database', 'ok', 'ok', log);
    this.redis = new DependencyState('redis', options.redis ? 'connecting' : 'off', 'ok', log);
  }

  /** SIGTERM arrived: `/readyz` answers 503 from now on, so that load balancers stop sending. */
  beginStopping(): void {
    this.stoppingSince ??= Date.now();
  }

  get stopping(): boolean {
    return this.stoppingSince !== null;
  }
}
