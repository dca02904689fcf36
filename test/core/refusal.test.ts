import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.ts';
import {
  asApiError,
  invalid,
  isRefusal,
  missing,
  Refusal,
  rateLimited,
  refusalStatuses,
} from '../../src/core/refusal.ts';

/** How a domain's refusal becomes the HTTP error its routes answer with (core/refusal.ts). */
describe('a refusal answered over HTTP', () => {
  it('gives the common codes their one status, field errors kept', () => {
    const bad = asApiError(invalid('Amount is wrong.', { amount_cents: 'must be positive' }));
    expect(bad).toBeInstanceOf(ApiError);
    expect(bad).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: 'Amount is wrong.',
      fieldErrors: { amount_cents: 'must be positive' },
    });
    expect(asApiError(missing())).toMatchObject({ status: 404, code: 'not_found', warnings: [] });
  });

  it('keeps the warnings a refusal gives the caller', () => {
    refusalStatuses<'test_code_blurry'>({ test_code_blurry: 422 });
    const error = asApiError(new Refusal('test_code_blurry', 'Retake it.', { warnings: ['Too dark.'] }));
    expect(error).toMatchObject({ status: 422, code: 'test_code_blurry', warnings: ['Too dark.'] });
  });

  it('answers rate_limited 429 with Retry-After when the limiter knows it, and without when not', () => {
    const timed = asApiError(rateLimited('Slow down.', 7)) as ApiError;
    expect(timed).toMatchObject({ status: 429, code: 'rate_limited', headers: { 'retry-after': '7' } });
    expect(timed.extra).toEqual({});
    const untimed = asApiError(rateLimited('Slow down.')) as ApiError;
    expect(untimed).toMatchObject({ status: 429, code: 'rate_limited', headers: {} });
  });

  it('answers a code from a domain table with its status and the extra members it documents', () => {
    refusalStatuses<'test_code_teapot'>({ test_code_teapot: 418 });
    const error = asApiError(new Refusal('test_code_teapot', 'No.', { extra: { missing_fields: ['a'] } }));
    expect(error).toMatchObject({ status: 418, code: 'test_code_teapot', extra: { missing_fields: ['a'] } });
  });

  it('answers a code no table knows with 500, keeping the refusal as the cause for the log', () => {
    const refusal = new Refusal('test_code_nobody_maps', 'Internal detail.');
    const error = asApiError(refusal) as ApiError;
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(error.message).not.toContain('Internal detail');
    expect(error.cause).toBe(refusal);
  });

  it('refuses two tables that give one code two statuses', () => {
    refusalStatuses<'test_code_once'>({ test_code_once: 409 });
    expect(() => refusalStatuses<'test_code_once'>({ test_code_once: 422 })).toThrow(/409.*422/);
    expect(() => refusalStatuses<'test_code_once'>({ test_code_once: 409 })).not.toThrow();
  });

  it('passes other errors through unchanged', () => {
    const other = new TypeError('x');
    expect(asApiError(other)).toBe(other);
  });
});

describe('isRefusal', () => {
  it('takes a Refusal and an ApiError as a refusal, and nothing else', () => {
    expect(isRefusal(missing())).toBe(true);
    expect(isRefusal(new ApiError(503, 'database_busy', 'Busy.'))).toBe(true);
    expect(isRefusal(new Error('x'))).toBe(false);
    expect(isRefusal({ code: 'not_found', message: 'No.' })).toBe(false);
  });
});
