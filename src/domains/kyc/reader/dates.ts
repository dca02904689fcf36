/** Date helpers; every date is a calendar date as YYYY-MM-DD (no time zone). */

export function isoDate(year: number, month: number, day: number): string | undefined {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return undefined;
  if (year < 1850 || year > 2200 || month < 1 || month > 12 || day < 1) return undefined;
  const dim = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > dim) return undefined;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The calendar date of `now` in UTC, as YYYY-MM-DD. */
export function todayIso(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** True when the document's expiry date lies before the day of `now` (valid through its expiry day). */
export function isExpired(expiryIso: string, now: Date): boolean {
  return expiryIso < todayIso(now);
}

/** Completed years of age at `now`. */
export function ageAt(dobIso: string, now: Date): number {
  const [y, m, d] = dobIso.split('-').map(Number) as [number, number, number];
  const today = todayIso(now);
  const [ty, tm, td] = today.split('-').map(Number) as [number, number, number];
  let age = ty - y;
  if (tm < m || (tm === m && td < d)) age--;
  return age;
}

export const ADULT_AGE = 18;
