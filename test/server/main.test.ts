// @module-tag processes
// Proves the process as `npm start` runs it: it comes up, answers the health query over HTTP,
// and exits cleanly on SIGTERM through its one shutdown path; without API_KEYS in development it
// prints a generated admin key once (and never logs it); in production it refuses to start.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnMain, type MainProcess } from '../support/app.ts';
import { testMongoUri } from '../support/mongo.ts';

describe('main', () => {
  let main: MainProcess | undefined;
  afterEach(() => {
    if (main && main.child.exitCode === null) main.child.kill('SIGKILL');
  });

  it('starts, answers { health { engine } } with the generated development key, and stops on SIGTERM', async () => {
    main = spawnMain({ MONGODB_URI: testMongoUri(), MONGODB_DB: 'test_main_process', PORT: '0', HOST: '127.0.0.1' });
    const [, key] = await main.waitFor(
      /API_KEYS is unset: generated a development admin key \(kept in \S+admin-key, mode 0600; delete the file for a new one\): (\S+)/,
    );
    const [, url] = await main.waitFor(/listening on (http:\S+\/graphql)/);
    const res = await fetch(url as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query: '{ health { engine } }' }),
    });
    expect(await res.json()).toEqual({ data: { health: { engine: 'uri' } } });

    main.child.kill('SIGTERM');
    expect(await main.exited).toEqual({ code: 0, signal: null });
    expect(main.stdout()).toContain('"msg":"stopped"');
    expect(main.stderr().split(key as string)).toHaveLength(2); // printed exactly once
    expect(main.stdout()).not.toContain(key);
  });

  it('refuses to start in production without API_KEYS, naming the variable', async () => {
    main = spawnMain({ NODE_ENV: 'production', MONGODB_URI: testMongoUri() });
    expect(await main.exited).toEqual({ code: 78, signal: null });
    expect(main.stderr()).toContain('API_KEYS: required when NODE_ENV=production');
  });

  it('refuses to start on a wrong variable, naming it', async () => {
    main = spawnMain({ PORT: 'eighty' });
    expect(await main.exited).toEqual({ code: 78, signal: null });
    expect(main.stderr()).toContain('PORT: expected an integer between 0 and 65535');
  });
});
