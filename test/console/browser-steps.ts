import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { picture } from '../helpers/browser.ts';
import { uniqueEmail } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/harness.ts';

/**
 * Console steps in Chromium, shared by the console's browser tests: a member's page (every request
 * it makes outside Purser and every script error collected), sign-in by the emailed code, and
 * screenshots at desktop and phone width. With CONSOLE_SCREENSHOTS=docs the screenshots go to
 * docs/images (docs/console.md), else to a temporary folder.
 */
export const CONSOLE_IMAGES =
  process.env.CONSOLE_SCREENSHOTS === 'docs'
    ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
    : mkdtempSync(join(tmpdir(), 'purser-console-screens-'));
mkdirSync(CONSOLE_IMAGES, { recursive: true });

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

export function consoleBrowser(t: TestApp, browser: Browser, base: string) {
  /**
   * A new member of `organizationId` with `role` and a browser page for them; `outside` collects
   * every request the page makes elsewhere (the console loads nothing from a third party) and
   * `problems` every script error.
   */
  async function memberPage(organizationId: string, role: 'owner' | 'developer' | 'viewer') {
    const email = uniqueEmail(role);
    await t.ctx.members.add(organizationId, email, role);
    const context = await browser.newContext({ viewport: DESKTOP });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const outside: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) outside.push(request.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    return { email, context, page, outside, problems };
  }

  /** Signs in through the pages with the code the email carried; lands on the credentials page. */
  async function signIn(page: Page, email: string) {
    await page.goto(`${base}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/sign-in');
    await page.fill('#f_email', email);
    await page.click('button[type="submit"]');
    await page.waitForSelector('#f_code');
    const message = (await t.ctx.notifications.sentMessages(1000)).find((m) => m.recipient === email);
    await page.fill('#f_code', /\b(\d{6})\b/.exec(message?.body ?? '')![1]!);
    await Promise.all([page.waitForURL(/\/credentials$/), page.click('button[type="submit"]')]);
  }

  /**
   * Screenshots of the page at desktop and phone width (`console-{name}.png`, `-phone.png`); on the
   * phone nothing is wider than the screen but the tables' own scrolling sections.
   */
  async function shoot(page: Page, name: string) {
    await page.setViewportSize(DESKTOP);
    await picture(page, join(CONSOLE_IMAGES, `console-${name}.png`));
    await page.setViewportSize(PHONE);
    await picture(page, join(CONSOLE_IMAGES, `console-${name}-phone.png`));
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(
      PHONE.width,
    );
    await page.setViewportSize(DESKTOP);
  }

  return { memberPage, signIn, shoot };
}
