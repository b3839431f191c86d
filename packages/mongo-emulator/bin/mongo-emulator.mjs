#!/usr/bin/env node
// Runs the TypeScript sources through tsx's ESM loader, so the command works right after `npm ci`
// with no build step. When a bundle of those very sources is at hand (scripts/buildProcesses.ts,
// which the test run builds), it runs that instead: the same code, listening in a fraction of a
// second rather than after tsx has compiled every module. "The very sources" is checked, not
// assumed: the bundle's stamp holds the hash of every file it was built from.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUNDLE = new URL('../dist/cli.mjs', import.meta.url);

function bundleIsCurrent() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(new URL('../dist/cli.mjs.stamp.json', import.meta.url), 'utf8'));
  } catch {
    return false;
  }
  const folder = fileURLToPath(new URL('../dist/', import.meta.url));
  const hash = createHash('sha256');
  try {
    for (const input of stamp.inputs)
      hash
        .update(input)
        .update('\0')
        .update(readFileSync(folder + input))
        .update('\0');
  } catch {
    return false;
  }
  return hash.digest('hex') === stamp.hash;
}

if (bundleIsCurrent()) {
  process.setSourceMapsEnabled(true);
  await import(BUNDLE.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
