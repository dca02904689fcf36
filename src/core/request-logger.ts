import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, Logger } from 'pino';

/**
 * Fastify's `childLoggerFactory`: a request's logger that makes pino's child (the request id bound
 * to it) only when the request first logs at an enabled level. Making the child on every request
 * cost more than anything else a GET does besides its answer (docs/benchmarks.md), and most
 * requests never log. The lines are the child's own.
 */
export function lazyRequestLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new RequestLogger(logger as Logger, bindings, options) as unknown as FastifyBaseLogger;
}

class RequestLogger {
  private made: FastifyBaseLogger | null = null;

  constructor(
    private readonly parent: Logger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  silent(): void {}

  logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  /** Whether a line at `level` would be written (by the child once made, else by its parent). */
  enabled(level: Level): boolean {
    return ((this.made ?? this.parent) as Logger).isLevelEnabled(level);
  }
}

for (const level of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value(this: RequestLogger, ...args: unknown[]) {
      if (this.enabled(level)) (this.logger()[level] as (...line: unknown[]) => void)(...args);
    },
  });
}
