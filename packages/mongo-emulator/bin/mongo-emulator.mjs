#!/usr/bin/env node
// Runs the TypeScript sources directly through tsx's ESM loader, so the command works right
// after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
