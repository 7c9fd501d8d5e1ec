import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** The system Chromium (Debian's `chromium`), or the one CHROMIUM_PATH names. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => path !== undefined && path !== '');
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined) {
    throw new Error(
      `The viewer's browser tests need Chromium, but none was found (looked at ${candidates.join(', ')}). ` +
        'Install Debian\'s: `apt-get install -y chromium` (.ci/run does this), or set CHROMIUM_PATH.',
    );
  }
  return found;
}

/**
 * Headless Chromium with the flags a closed network needs (no background connections). Playwright
 * starts it with a fresh temporary --user-data-dir of its own and removes it on close.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
