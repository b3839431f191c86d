// Proves deny by default at the schema level: every root field of the app's schema names a right
// that matches docs/design.md's roles table, and a root field without a rule does not build.
import { Authorized, Query, Resolver } from 'type-graphql';
import { describe, expect, it } from 'vitest';
import { listRootFieldRules } from '../../src/graphql/auth/index.ts';
import { RIGHTS, type Right, type Role } from '../../src/access/roles.ts';
import { buildAppSchema } from '../../src/app/schema.ts';

// docs/design.md's roles table, transcribed by hand (not derived from the code under test).
const DESIGN_TABLE: Record<Right, Role[]> = {
  query: ['dashboard', 'ops', 'worker', 'service', 'admin'],
  subscribe: ['ops', 'service', 'admin'],
  subscribeWorkItemStatus: ['ops', 'worker', 'service', 'admin'],
  moveMoney: ['service', 'admin'],
  createWork: ['service', 'admin'],
  scheduleWork: ['service', 'admin'],
  processWork: ['worker', 'service', 'admin'],
  requeueWork: ['ops', 'admin'],
  readAudit: ['dashboard', 'ops', 'admin'],
  runAudit: ['admin'],
};

// The right each named operation of docs/design.md must carry. A new mutation must be added here
// (and to docs/design.md's table) on purpose.
const MUTATION_RIGHTS: Record<string, Right> = {
  openAccount: 'moveMoney',
  deposit: 'moveMoney',
  withdraw: 'moveMoney',
  transfer: 'moveMoney',
  submitMoves: 'moveMoney',
  authorizeHold: 'moveMoney',
  captureHold: 'moveMoney',
  voidHold: 'moveMoney',
  reverseMove: 'moveMoney',
  closeAccount: 'moveMoney',
  createWorkItem: 'createWork',
  claimWorkItem: 'processWork',
  claimWorkItems: 'processWork',
  heartbeatWorkItem: 'processWork',
  completeWorkItem: 'processWork',
  heartbeatWorkItems: 'processWork',
  completeWorkItems: 'processWork',
  requeueWorkItem: 'requeueWork',
  scheduleWork: 'scheduleWork',
  unscheduleWork: 'scheduleWork',
  runLedgerAudit: 'runAudit',
};

// Queries with a right narrower than `query`.
const QUERY_RIGHTS: Record<string, Right> = {
  ledgerAudit: 'readAudit',
};

function expectedRight(coordinate: string): Right | undefined {
  const [root, field] = coordinate.split('.') as [string, string];
  if (root === 'Query') return QUERY_RIGHTS[field] ?? 'query';
  if (root === 'Subscription') return field === 'workItemStatusChanged' ? 'subscribeWorkItemStatus' : 'subscribe';
  return MUTATION_RIGHTS[field];
}

describe('access rules', () => {
  it('mirror the roles table of docs/design.md', () => {
    expect(RIGHTS).toEqual(DESIGN_TABLE);
  });

  it('give every root field of the app schema the right docs/design.md names for it', async () => {
    const rules = listRootFieldRules(await buildAppSchema());
    expect(rules.map((rule) => rule.coordinate)).toContain('Query.health');
    for (const rule of rules) {
      expect({ field: rule.coordinate, right: rule.right }).toEqual({
        field: rule.coordinate,
        right: expectedRight(rule.coordinate),
      });
    }
  });

  it('refuse to build a schema with a root field that has no rule', async () => {
    @Resolver()
    class Unruled {
      @Query(() => String)
      unruledField(): string {
        return 'open door';
      }
    }
    await expect(buildAppSchema({ extraResolvers: [Unruled] })).rejects.toThrow(
      'Root fields without an access rule (add @Allow(Rights.<right>)): Query.unruledField',
    );
  });

  it('refuse a bare @Authorized, which names no right of the table', async () => {
    @Resolver()
    class BareAuthorized {
      @Query(() => String)
      @Authorized()
      bareField(): string {
        return 'any authenticated role';
      }
    }
    await expect(buildAppSchema({ extraResolvers: [BareAuthorized] })).rejects.toThrow('Query.bareField');
  });
});
