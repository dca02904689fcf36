import { randomInt } from 'node:crypto';

/**
 * Card numbers of the built-in sandbox network: 16 digits in the `400000` test range (a Visa test
 * BIN no real card uses), Luhn-valid so that forms accept them.
 */
const SANDBOX_BIN = '400000';

export function luhnCheckDigit(partial: string): number {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    // Doubling starts from the digit next to the check digit, moving left.
    let digit = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(number: string): boolean {
  return /^\d{12,19}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1));
}

export interface CardNumber {
  pan: string;
  cvv: string;
  /** `MM/YY`. */
  expiry: string;
}

/** A new sandbox card number, valid three years from `now`. */
export function sandboxCardNumber(now: number): CardNumber {
  let partial = SANDBOX_BIN;
  while (partial.length < 15) partial += String(randomInt(10));
  const expires = new Date(now);
  const month = String(expires.getUTCMonth() + 1).padStart(2, '0');
  const year = String((expires.getUTCFullYear() + 3) % 100).padStart(2, '0');
  return {
    pan: partial + String(luhnCheckDigit(partial)),
    cvv: String(randomInt(1000)).padStart(3, '0'),
    expiry: `${month}/${year}`,
  };
}
