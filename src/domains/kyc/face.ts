import type { Clock } from '../../core/clock.ts';
import { MemoryRateLimiter, type RateLimiter } from '../../core/rate-limit.ts';
import { Refusal, rateLimited } from '../../core/refusal.ts';
import type { KycConfig } from './config.ts';
import type { KycRefusalCode } from './index.ts';
import type { DocumentReader } from './reader/pool.ts';

/**
 * The hosted page's face scan, as the service sees it: a budget per page session, then the frames
 * checked on the reader's threads (reader/face.ts), never on the API's event loop.
 */
export class FaceScanGate {
  /** In-process: each API process protects its own reader threads. */
  private readonly limiter: RateLimiter;

  constructor(
    private readonly reader: DocumentReader,
    private readonly config: Pick<KycConfig, 'frameLimits' | 'faceScanRateLimit'>,
    clock: Clock,
  ) {
    this.limiter = new MemoryRateLimiter(config.faceScanRateLimit, clock);
  }

  /**
   * Counts one submit that checks a face scan, keyed by the verification: a verification has one
   * page session at a time, and opening the page again must not reset the budget.
   */
  async throttle(verificationId: string): Promise<void> {
    const decision = await this.limiter.hit(`kyc-face-scan:${verificationId}`);
    if (!decision.allowed)
      throw rateLimited(
        `Too many face scans from this page; wait ${decision.retryAfterSeconds} seconds and try again.`,
        decision.retryAfterSeconds,
      );
  }

  /** Refuses `face_scan_failed` or `image_too_large`; `verification_error` when the reader cannot. */
  async check(frames: Buffer[]): Promise<void> {
    let problem: Awaited<ReturnType<DocumentReader['checkFaceScan']>>;
    try {
      problem = await this.reader.checkFaceScan(frames, this.config.frameLimits);
    } catch (cause) {
      throw new Refusal<KycRefusalCode>(
        'verification_error',
        'The face scan could not be checked right now. Try again.',
        { cause },
      );
    }
    if (problem) throw new Refusal<KycRefusalCode>(problem.code, problem.reason);
  }
}
