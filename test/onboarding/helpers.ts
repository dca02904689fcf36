import { expect } from 'vitest';
import { formFields } from '../links/helpers.ts';

/** The hidden fields of the onboarding page's form for `purpose` (details, claim_start, claim_verify). */
export function onboardingForm(html: string, purpose: string): Record<string, string> {
  const all = [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)];
  const form = all.find((m) => m[2]?.includes(`name="purpose" value="${purpose}"`));
  expect(form, `a ${purpose} form`).toBeDefined();
  return formFields(`<form method="post" action="${form![1]}">${form![2]}</form>`, form![1]!);
}
