/** The one source of time. Tests replace it with a `ManualClock` to move time forward. */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private current = Date.now()) {}
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The last time formatted, and its text: a transaction's and its events' times are mostly one instant. */
let lastIsoMs = Number.NaN;
let lastIso = '';

export function isoTime(ms: number): string {
  if (ms !== lastIsoMs) {
    lastIso = new Date(ms).toISOString();
    lastIsoMs = ms;
  }
  return lastIso;
}

export function unixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
