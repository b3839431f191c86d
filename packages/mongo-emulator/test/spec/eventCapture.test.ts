// Proves what the event assertions forgive and what they keep: exactly the Node driver's
// `wtimeout: 10000` on commit/abort write concerns, and a recorded command as it was when sent.
import { describe, expect, it } from 'vitest';
import { snapshotEvent } from './clientEntity.ts';
import { eventsDifference, withoutDriverWtimeout } from './expectEvents.ts';
import { Matcher } from './matcher.ts';
import type { EntityMap } from './entities.ts';

const matcher = new Matcher();

function entitiesWith(events: Array<Record<string, unknown>>): EntityMap {
  const client = { events: events.map((event) => ({ name: 'commandStartedEvent', event })) };
  return { get: () => client } as unknown as EntityMap;
}

function check(expectedCommand: Record<string, unknown>, command: Record<string, unknown>): string | null {
  const commandName = Object.keys(command)[0];
  return eventsDifference(
    { client: 'client0', events: [{ commandStartedEvent: { commandName, command: expectedCommand } }] },
    entitiesWith([{ commandName, command }]),
    matcher,
  );
}

describe("the driver's wtimeout on commit and abort", () => {
  it('is forgiven on commitTransaction and abortTransaction when the test does not mention wtimeout', () => {
    expect(
      check(
        { commitTransaction: 1, writeConcern: { w: 'majority' } },
        { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 10000 } },
      ),
    ).toBeNull();
    expect(
      check(
        { abortTransaction: 1, writeConcern: { w: 1 } },
        { abortTransaction: 1, writeConcern: { w: 1, wtimeout: 10000 } },
      ),
    ).toBeNull();
  });

  it('is not forgiven with another value, on another command, or when the test expects a wtimeout', () => {
    expect(
      check(
        { commitTransaction: 1, writeConcern: { w: 'majority' } },
        { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 5000 } },
      ),
    ).toMatch(/unexpected key\(s\) wtimeout/);
    expect(
      check(
        { insert: 'c', writeConcern: { w: 'majority' } },
        { insert: 'c', writeConcern: { w: 'majority', wtimeout: 10000 } },
      ),
    ).toMatch(/unexpected key\(s\) wtimeout/);
    expect(
      check(
        { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 500 } },
        { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 10000 } },
      ),
    ).toMatch(/wtimeout: expected 500, got 10000/);
  });

  it('forgives nothing else nested: another extra key still fails', () => {
    expect(
      check(
        { commitTransaction: 1, writeConcern: { w: 'majority' } },
        { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 10000, j: true } },
      ),
    ).toMatch(/unexpected key\(s\) j in nested/);
    expect(
      check(
        { commitTransaction: 1, readConcern: { level: 'local' } },
        { commitTransaction: 1, readConcern: { level: 'local', wtimeout: 10000 } },
      ),
    ).toMatch(/unexpected key\(s\) wtimeout/);
  });

  it('leaves the recorded command untouched', () => {
    const command = { commitTransaction: 1, writeConcern: { w: 'majority', wtimeout: 10000 } };
    const judged = withoutDriverWtimeout(
      'commitTransaction',
      { writeConcern: { w: 'majority' } },
      command,
    ) as typeof command;
    expect(judged.writeConcern).toEqual({ w: 'majority' });
    expect(command.writeConcern).toEqual({ w: 'majority', wtimeout: 10000 });
  });
});

describe('captured events', () => {
  it('keep the command as it was sent when the driver changes a shared option object afterwards', () => {
    const readConcern: Record<string, unknown> = { level: 'local' };
    const event = { commandName: 'insert', command: { insert: 'c', readConcern } };
    const recorded = snapshotEvent(event);
    readConcern.afterClusterTime = 'later';
    expect(
      check({ insert: 'c', readConcern: { level: 'local' } }, recorded.command as Record<string, unknown>),
    ).toBeNull();
    expect(check({ insert: 'c', readConcern: { level: 'local' } }, event.command)).toMatch(
      /unexpected key\(s\) afterClusterTime/,
    );
  });

  it('report every differing event, and a wrong count, at once', () => {
    const difference = eventsDifference(
      {
        client: 'client0',
        events: [
          { commandStartedEvent: { command: { find: 'a' } } },
          { commandStartedEvent: { command: { find: 'b' } } },
        ],
      },
      entitiesWith([
        { commandName: 'find', command: { find: 'x' } },
        { commandName: 'find', command: { find: 'y' } },
        { commandName: 'find', command: { find: 'z' } },
      ]),
      matcher,
    );
    expect(difference?.split('\n')).toEqual([
      'expectEvents[client0]: expected 2 events, observed 3: [commandStarted:find, commandStarted:find, commandStarted:find]',
      'expectEvents[client0][0] commandStartedEvent (find): command.find: expected "a", got "x"',
      'expectEvents[client0][1] commandStartedEvent (find): command.find: expected "b", got "y"',
    ]);
  });
});
