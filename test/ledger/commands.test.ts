import type { CommandStartedEvent } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMonitoredSchema, type MonitoredSchema } from './support/monitoredSchema.ts';

// What the ledger asks of the database, seen through the driver's command monitoring:
// every command a mutation sends goes to the primary and every write waits for a majority
// (the seed's double spend came from a balance read on a lagging secondary): a write outside a
// transaction carries w: majority, a money move's writes are inside its transaction, whose
// commit carries w: majority. And a page of
// entries with their accounts costs a fixed number of queries, not one per entry.

let m: MonitoredSchema;
beforeAll(async () => {
  m = await openMonitoredSchema('commands');
});
afterAll(async () => {
  await m.close();
});

const writeCommands = new Set(['insert', 'update', 'delete', 'findAndModify']);

async function mutate(source: string, variables: Record<string, unknown>) {
  const { result, commands } = await m.run(source, variables);
  expect(result.errors).toBeUndefined();
  return commands;
}

function expectPrimaryAndMajority(commands: CommandStartedEvent[]) {
  expect(commands.length).toBeGreaterThan(0);
  for (const { command, commandName } of commands) {
    const readPreference = command.$readPreference as { mode?: string } | undefined;
    expect({ commandName, mode: readPreference?.mode ?? 'primary' }).toEqual({ commandName, mode: 'primary' });
    const w = (command.writeConcern as { w?: unknown } | undefined)?.w;
    const inTransaction = command.autocommit === false;
    if (commandName === 'commitTransaction') expect({ commandName, w }).toEqual({ commandName, w: 'majority' });
    if (writeCommands.has(commandName))
      expect({ commandName, w: inTransaction ? 'in transaction' : w }).toEqual({
        commandName,
        w: inTransaction ? 'in transaction' : 'majority',
      });
  }
}

const open = 'mutation($id: String!) { openAccount(input: { accountId: $id, currency: "EUR" }) { __typename } }';
const deposit =
  'mutation($id: String!, $r: String!, $a: SafeInt!) { deposit(input: { accountId: $id, amount: $a, requestId: $r }) { __typename } }';
const withdraw =
  'mutation($id: String!, $r: String!, $a: SafeInt!) { withdraw(input: { accountId: $id, amount: $a, requestId: $r }) { __typename } }';
const transfer =
  'mutation($f: String!, $t: String!, $r: String!, $a: SafeInt!) { transfer(input: { fromAccountId: $f, toAccountId: $t, amount: $a, requestId: $r }) { __typename } }';

describe('ledger commands', () => {
  it('sends every command of every mutation, replays included, to the primary with w: majority', async () => {
    const sent: CommandStartedEvent[] = [];
    for (const id of ['cmd-a', 'cmd-b']) sent.push(...(await mutate(open, { id })));
    sent.push(...(await mutate(deposit, { id: 'cmd-a', r: 'cmd-dep', a: 500 })));
    sent.push(...(await mutate(withdraw, { id: 'cmd-a', r: 'cmd-wd', a: 100 })));
    sent.push(...(await mutate(withdraw, { id: 'cmd-a', r: 'cmd-wd', a: 100 })));
    sent.push(...(await mutate(withdraw, { id: 'cmd-a', r: 'cmd-over', a: 10_000 })));
    sent.push(...(await mutate(transfer, { f: 'cmd-a', t: 'cmd-b', r: 'cmd-tr', a: 50 })));
    sent.push(...(await mutate(open, { id: 'cmd-a' })));
    // abortTransaction: the replay ends its transaction when the key turns out to be decided.
    expect(new Set(sent.map((event) => event.commandName))).toEqual(
      new Set(['find', 'insert', 'update', 'findAndModify', 'commitTransaction', 'abortTransaction']),
    );
    expect(sent.filter((event) => event.commandName === 'commitTransaction')).toHaveLength(4);
    expectPrimaryAndMajority(sent);
  });

  it('loads a page of entries with their accounts and counterparties in two queries', async () => {
    const peers = Array.from({ length: 8 }, (_, i) => `np1-peer-${i}`);
    for (const id of ['np1-main', ...peers]) await mutate(open, { id });
    await mutate(deposit, { id: 'np1-main', r: 'np1-fund', a: 10_000 });
    for (const [i, peer] of peers.entries())
      await mutate(transfer, { f: 'np1-main', t: peer, r: `np1-t${i}`, a: 10 + i });

    const { result, commands } = await m.run(`{
      ledgerEntries(accountId: "np1-main", first: 9) {
        items { kind amount account { id balance } counterparty { id balance } }
      }
    }`);
    expect(result.errors).toBeUndefined();
    const items = (result.data as { ledgerEntries: { items: { counterparty: { id: string } | null }[] } }).ledgerEntries
      .items;
    expect(items).toHaveLength(9);
    expect(new Set(items.map((item) => item.counterparty?.id ?? null))).toEqual(new Set([...peers, null]));
    expect(commands.map((event) => [event.commandName, event.command[event.commandName]])).toEqual([
      ['find', 'ledger_entries'],
      ['find', 'accounts'],
    ]);
    // Reporting reads may use a secondary, and say so on the wire: the check above would see it.
    for (const { command } of commands) {
      expect(command.$readPreference).toMatchObject({ mode: 'secondaryPreferred' });
      expect(command.readConcern).toMatchObject({ level: 'majority' });
    }
  });
});
