import { describe, expect, it } from 'vitest';
import { watchEventLoop } from '../../src/core/event-loop.ts';

describe('event-loop stall warning', () => {
  it('logs a warn line with the stall length when the loop is blocked past the threshold', async () => {
    const warnings: { stall_ms: number; threshold_ms: number }[] = [];
    const stop = watchEventLoop(50, (fields) => warnings.push(fields), 10);
    // Block the loop on purpose (the stall under test), then let the timer run.
    const until = Date.now() + 200;
    while (Date.now() < until) {}
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop();
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings[0]?.stall_ms).toBeGreaterThan(50);
    expect(Object.keys(warnings[0] ?? {}).sort()).toEqual(['stall_ms', 'threshold_ms']);
  });

  it('is off at 0', () => {
    const stop = watchEventLoop(0, () => {
      throw new Error('never');
    });
    stop();
  });
});
