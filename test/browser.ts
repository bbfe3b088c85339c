// The browser the page and widget tests drive (playwright-core, Debian's Chromium first) and axe-core over what it shows.
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { skipUnless } from './helpers.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium the browser tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else the one
 * playwright-core would have downloaded; or why there is none and how to get one.
 */
function findChromium(): { path: string } | { missing: string } {
  const given = process.env.CHROMIUM_PATH;
  if (given) return isExecutableFile(given) ? { path: given } : { missing: `CHROMIUM_PATH=${given} is not an executable file` };
  const candidates = ['/usr/bin/chromium'];
  try {
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core knows no download location on this platform.
  }
  const found = candidates.find(isExecutableFile);
  if (found) return { path: found };
  return { missing: `no Chromium found (${candidates.join(', ')}): install it with \`apt-get install chromium\` or \`npx playwright-core install chromium\`, or point CHROMIUM_PATH at one` };
}

const found = findChromium();

/** The skip option of a browser suite: the reason when there is no Chromium (a failure with REQUIRE_BROWSER=1). */
export const browserSkip = skipUnless('REQUIRE_BROWSER', 'missing' in found ? found.missing : undefined);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: 'path' in found ? found.path : undefined,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** axe-core's WCAG 2.x A/AA rules over the page or frame as it is now (shadow roots included): each violation as "rule: targets". */
export async function axeViolations(page: Page | Frame): Promise<string[]> {
  // Evaluated through the DevTools protocol, so the page's CSP (scripts from this origin only) does not apply.
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, opts: unknown): Promise<{ violations: { id: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
}
