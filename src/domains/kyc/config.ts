import { ConfigError, type Env, integer } from '../../core/env.ts';
import type { RateLimitRule } from '../../core/rate-limit.ts';
import { FRAME_LIMITS } from './reader/face.ts';
import { DOCUMENT_LIMITS, type ImageLimits } from './reader/header.ts';

/** Identity-verification settings (`KYC_*`); docs/kyc.md lists them. */
export interface KycConfig {
  /** HMAC key of hosted-page links; null derives one from the encryption key (stable across processes). */
  linkSecret: string | null;
  /** Lifetime of a hosted-page link (`iframe_url`). */
  linkTtlSeconds: number;
  /** Lifetime of an opened hosted page (its form posts). */
  sessionTtlSeconds: number;
  /** Body limit of the document upload and face-scan routes (base64 images). */
  uploadLimitBytes: number;
  /** Worker threads that read document photos (0: read on the API's own thread). */
  readerThreads: number;
  /** A document read taking longer fails (502 verification_error) and its thread is replaced. */
  readerTimeoutMs: number;
  /** Reads that may wait for a thread; more fail at once (502 verification_error). */
  readerQueue: number;
  /** Document photos over these are refused from their header (422 image_too_large), never decoded. */
  documentLimits: ImageLimits;
  /** Face-scan frames over these are refused from their header (422 image_too_large), never decoded. */
  frameLimits: ImageLimits;
  /** Hosted-page submits that check a face scan, per page session (429 rate_limited beyond). */
  faceScanRateLimit: RateLimitRule;
  /** The identity-review provider's endpoint (HttpReviewer); null keeps review in the manual queue. */
  reviewUrl: string | null;
  /** Bearer the provider expects from us. */
  reviewApiKey: string | null;
  /** Bearer token of the manual review API (`/operator/kyc/reviews`); the API answers 404 when unset. */
  reviewerToken: string | null;
}

export function loadKycConfig(env: Env): KycConfig {
  const linkSecret = env.KYC_LINK_SECRET || null;
  if (linkSecret !== null && linkSecret.length < 32)
    throw new ConfigError('KYC_LINK_SECRET must be at least 32 characters');
  const reviewerToken = env.KYC_REVIEWER_TOKEN || null;
  if (reviewerToken !== null && reviewerToken.length < 24)
    throw new ConfigError('KYC_REVIEWER_TOKEN must be at least 24 characters');
  const reviewUrl = env.KYC_REVIEW_URL || null;
  if (reviewUrl !== null) {
    const url = URL.canParse(reviewUrl) ? new URL(reviewUrl) : null;
    const local = url !== null && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    // Review requests carry personal data and the national id number: TLS, except on this machine.
    if (!url || !(url.protocol === 'https:' || (url.protocol === 'http:' && local)))
      throw new ConfigError('KYC_REVIEW_URL must be an https URL (http only for localhost)');
    if (!reviewerToken)
      throw new ConfigError(
        'KYC_REVIEW_URL needs KYC_REVIEWER_TOKEN: the provider answers through the review API',
      );
  }
  return {
    linkSecret,
    reviewUrl,
    reviewApiKey: env.KYC_REVIEW_API_KEY || null,
    linkTtlSeconds: integer(env, 'KYC_LINK_TTL_SECONDS', 900, 30, 86_400),
    sessionTtlSeconds: integer(env, 'KYC_SESSION_TTL_SECONDS', 1800, 60, 86_400),
    uploadLimitBytes: integer(
      env,
      'KYC_UPLOAD_LIMIT_BYTES',
      15 * 1024 * 1024,
      1024 * 1024,
      100 * 1024 * 1024,
    ),
    readerThreads: integer(env, 'KYC_READER_THREADS', 1, 0, 16),
    readerTimeoutMs: integer(env, 'KYC_READER_TIMEOUT_MS', 30_000, 1, 300_000),
    readerQueue: integer(env, 'KYC_READER_QUEUE', 32, 0, 10_000),
    // The decoders refuse more than DOCUMENT_LIMITS.maxPixels whatever the setting: it can only go down.
    documentLimits: {
      maxPixels: integer(
        env,
        'KYC_IMAGE_MAX_PIXELS',
        DOCUMENT_LIMITS.maxPixels,
        10_000,
        DOCUMENT_LIMITS.maxPixels,
      ),
      maxBytes: integer(env, 'KYC_IMAGE_MAX_BYTES', DOCUMENT_LIMITS.maxBytes, 10_000, 100 * 1024 * 1024),
    },
    frameLimits: {
      maxPixels: integer(env, 'KYC_FRAME_MAX_PIXELS', FRAME_LIMITS.maxPixels, 160 * 120, 4096 * 4096),
      maxBytes: integer(env, 'KYC_FRAME_MAX_BYTES', FRAME_LIMITS.maxBytes, 10_000, 1_500_000),
    },
    faceScanRateLimit: {
      max: integer(env, 'KYC_FACE_SCAN_RATE_LIMIT', 6, 1),
      windowSeconds: integer(env, 'KYC_FACE_SCAN_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    reviewerToken,
  };
}
