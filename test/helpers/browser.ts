import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type CDPSession, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, driven through playwright-core (never a downloaded browser). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless Chromium without its background traffic; `extra` adds flags (fake media devices). The
 * browser tests never skip: without Debian's Chromium they fail, saying how to install it.
 */
export function launchChromium(extra: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(`The browser tests need Debian's Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extra,
    ],
  });
}

/** A loopback port nobody listens on now (the app is started on it, so BASE_URL can name it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * A platform authenticator on the DevTools protocol (WebAuthn must be enabled on `cdp`): user
 * verification always succeeds, presence is simulated. Its id, to remove it (another device).
 */
export async function addPlatformAuthenticator(cdp: CDPSession): Promise<string> {
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return authenticatorId;
}

/** A browser context at a desktop's or a phone's size, its page, and a platform authenticator of its own. */
export async function deviceWithAuthenticator(
  browser: Browser,
  phone: boolean,
): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext({
    viewport: phone ? PHONE : DESKTOP,
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  return { context, page, cdp, authenticatorId: await addPlatformAuthenticator(cdp) };
}

/**
 * Where a browser test writes its screenshots: docs/images when the environment variable `name` is
 * `docs` (refreshing the documentation's pictures), else a new temporary directory.
 */
export function screenshotDir(name: string): string {
  const dir =
    process.env[name] === 'docs'
      ? join(dirname(fileURLToPath(import.meta.url)), '../../docs/images')
      : mkdtempSync(join(tmpdir(), 'purser-screens-'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * A full-page picture of the page at `path`, for a person to look at (nothing asserts on it):
 * Chromium sometimes refuses a capture under load ("Unable to capture screenshot"), which must not
 * fail the test whose assertions passed.
 */
export async function picture(page: Page, path: string): Promise<void> {
  await page.screenshot({ path, fullPage: true }).catch(() => {});
}
