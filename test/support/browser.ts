// Debian's chromium, driven by playwright-core: headless, offline, never downloaded by a tool.
import { execFileSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  const executablePath = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  return chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}
