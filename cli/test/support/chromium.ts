import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Debian's Chromium for the browser tests: `AGENTGOV_CHROMIUM`, else the first installed candidate,
 * else installed with apt-get when the tests run as root; anything else fails with what to do.
 * Playwright never downloads a browser of its own.
 */
export function chromiumPath(): string {
  const wanted = process.env['AGENTGOV_CHROMIUM'];
  if (wanted) {
    if (!existsSync(wanted)) throw new Error(`AGENTGOV_CHROMIUM=${wanted} does not exist`);
    return wanted;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error(
      'the dashboard browser tests need Chromium: install it (`sudo apt-get install chromium`) or set AGENTGOV_CHROMIUM',
    );
  }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'chromium'],
  ]) {
    const run = spawnSync('apt-get', args, {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      timeout: 900_000,
    });
    if (run.status !== 0)
      throw new Error(`apt-get ${args.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr || run.stdout}`);
  }
  if (!existsSync(CANDIDATES[0]!)) throw new Error('apt-get installed chromium, but /usr/bin/chromium is not there');
  return CANDIDATES[0]!;
}

/** Headless, as root without the sandbox, and with nothing that reaches beyond this machine. */
export function launchChromium(): Promise<Browser> {
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
