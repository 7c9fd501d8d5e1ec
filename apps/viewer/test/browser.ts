import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where a system Chromium may be: the one CHROMIUM_PATH names, then Debian's. */
const SYSTEM_CHROMIUM = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => path !== undefined && path !== '');

/**
 * The Chromium the browser tests drive: a system one when there is one, else the Chromium that
 * ships inside the `@sparticuz/chromium` npm package (Linux x64 and arm64, unpacked into the
 * temporary folder on first use, a few seconds), so that Node and npm are all the tests need.
 */
export async function chromiumPath(): Promise<string> {
  const system = SYSTEM_CHROMIUM.find((path) => existsSync(path));
  if (system !== undefined) return system;
  if (process.platform !== 'linux' || (process.arch !== 'x64' && process.arch !== 'arm64')) {
    throw new Error(
      `The viewer's browser tests need Chromium: none at ${SYSTEM_CHROMIUM.join(', ')}, and the one inside @sparticuz/chromium runs on Linux x64 and arm64 only (this is ${process.platform} ${process.arch}). ` +
        'Install Chromium (Debian: `apt-get install -y chromium`) or set CHROMIUM_PATH to a Chromium or Chrome.',
    );
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  try {
    return await packaged.executablePath();
  } catch (error) {
    throw new Error(`The viewer's browser tests found no system Chromium (${SYSTEM_CHROMIUM.join(', ')}) and could not unpack @sparticuz/chromium's: ${(error as Error).message}. Install Chromium (Debian: \`apt-get install -y chromium\`) or set CHROMIUM_PATH.`, { cause: error });
  }
}

/**
 * Headless Chromium with the flags a closed network needs (no background connections). Playwright
 * starts it with a fresh temporary --user-data-dir of its own and removes it on close. Its locale
 * is en-US whatever the machine's: under LANG=C.UTF-8 the packaged Chromium reports `en-US@posix`,
 * which Intl refuses, and the app would not start.
 */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPath(),
    headless: true,
    env: { ...process.env, LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8' },
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
