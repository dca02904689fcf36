import { performance } from 'node:perf_hooks';

/**
 * Warns when the event loop was blocked: a timer that should fire every `intervalMs` is checked for
 * how late it ran. A late tick means every request and delivery of the process waited that long;
 * the log line says by how much (and nothing about what ran), so an operator can look for the cause.
 */
export function watchEventLoop(
  thresholdMs: number,
  warn: (fields: { stall_ms: number; threshold_ms: number }, message: string) => void,
  intervalMs = Math.min(100, Math.max(10, Math.floor(thresholdMs / 2))),
): () => void {
  if (thresholdMs <= 0) return () => {};
  let expected = performance.now() + intervalMs;
  const timer = setInterval(() => {
    const now = performance.now();
    const late = now - expected;
    expected = now + intervalMs;
    if (late > thresholdMs) {
      warn({ stall_ms: Math.round(late), threshold_ms: thresholdMs }, 'event loop stalled');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
