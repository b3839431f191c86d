// Proves runOnRequirements evaluation against the facts of a 7.0.0 replica set without auth:
// version bounds, topologies, serverless, auth, csfle, server parameters, and "any of".
import { describe, expect, it } from 'vitest';
import { unmetRequirement, unmetRequirements, type ServerFacts } from './requirements.ts';

const facts: ServerFacts = {
  version: '7.0.0',
  topology: 'replicaset',
  auth: false,
  serverless: false,
  csfle: false,
  serverParameter: async (name) => (name === 'enableTestCommands' ? 1 : undefined),
};

describe('runOnRequirements', () => {
  it('meets version bounds that include 7.0.0 and names the bound that excludes it', async () => {
    expect(await unmetRequirement({ minServerVersion: '4.0', maxServerVersion: '7.0.99' }, facts)).toBeNull();
    expect(await unmetRequirement({ minServerVersion: '8.0' }, facts)).toBe('needs server >= 8.0 (server is 7.0.0)');
    expect(await unmetRequirement({ maxServerVersion: '6.0.99' }, facts)).toMatch(/needs server <= 6.0.99/);
  });

  it('matches topologies, with sharded-replicaset meaning sharded', async () => {
    expect(await unmetRequirement({ topologies: ['single', 'replicaset'] }, facts)).toBeNull();
    expect(await unmetRequirement({ topologies: ['sharded', 'sharded-replicaset'] }, facts)).toMatch(
      /deployment is replicaset/,
    );
  });

  it('honours serverless, auth and csfle', async () => {
    expect(await unmetRequirement({ serverless: 'forbid' }, facts)).toBeNull();
    expect(await unmetRequirement({ serverless: 'require' }, facts)).toMatch(/Serverless/);
    expect(await unmetRequirement({ auth: false }, facts)).toBeNull();
    expect(await unmetRequirement({ auth: true }, facts)).toMatch(/needs authentication/);
    expect(await unmetRequirement({ csfle: false }, facts)).toBeNull();
    expect(await unmetRequirement({ csfle: true }, facts)).toMatch(/encryption/);
  });

  it('compares server parameters numerically and treats unknown ones as unmet', async () => {
    expect(await unmetRequirement({ serverParameters: { enableTestCommands: true } }, facts)).toMatch(
      /enableTestCommands/,
    );
    expect(await unmetRequirement({ serverParameters: { enableTestCommands: 1.0 } }, facts)).toBeNull();
    expect(await unmetRequirement({ serverParameters: { nope: 1 } }, facts)).toMatch(/nope/);
  });

  it('is met when any one requirement is met, and lists the reasons when none is', async () => {
    expect(await unmetRequirements(undefined, facts)).toBeNull();
    expect(await unmetRequirements([{ topologies: ['sharded'] }, { minServerVersion: '4.4' }], facts)).toBeNull();
    expect(await unmetRequirements([{ topologies: ['sharded'] }, { minServerVersion: '8.0' }], facts)).toMatch(
      /sharded.*; or needs server >= 8.0/,
    );
  });
});
