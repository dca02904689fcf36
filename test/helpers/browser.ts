import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { type Browser, chromium } from 'playwright-core';

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
