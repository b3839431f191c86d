// expectEvents: the events a client observed, in order, against the expected ones. Every event
// that differs is reported, not only the first.
import { CMAP_EVENT_NAMES, SDAM_EVENT_NAMES, type ObservedEvent } from './clientEntity.ts';
import type { EntityMap } from './entities.ts';
import type { Matcher } from './matcher.ts';
import { unsupported } from './outcomes.ts';

export interface ExpectedEventsForClient {
  client: string;
  eventType?: 'command' | 'cmap' | 'sdam';
  events: Array<Record<string, Record<string, unknown>>>;
  ignoreExtraEvents?: boolean;
}

const COMMAND_EVENT_NAMES = new Set(['commandStartedEvent', 'commandSucceededEvent', 'commandFailedEvent']);

function hasServiceId(event: Record<string, unknown>): boolean {
  const serviceId = event.serviceId as { toHexString?: () => string } | undefined | null;
  return serviceId?.toHexString !== undefined && /[^0]/.test(serviceId.toHexString());
}

function hasServerConnectionId(event: Record<string, unknown>): boolean {
  const id = event.serverConnectionId;
  return (typeof id === 'bigint' || typeof id === 'number') && id > 0;
}

// The one key the Node driver adds that the spec tests do not expect: without timeoutMS, its
// sessions.ts gives commitTransaction and abortTransaction a write concern of
// WriteConcern.apply({ wtimeoutMS: 10000, w: 'majority', ...wc }), so `wtimeout: 10000` is sent
// beside the test's own keys. Only that key, with that value, on those two commands, is forgiven.
const DRIVER_WTIMEOUT_COMMANDS = new Set(['commitTransaction', 'abortTransaction']);
const DRIVER_WTIMEOUT_MS = 10_000;

/**
 * The command as the test may judge it: for a commit/abort whose expected writeConcern does not
 * mention wtimeout, a copy without the driver's `wtimeout: 10000`; otherwise the command itself.
 */
export function withoutDriverWtimeout(commandName: unknown, expected: unknown, command: unknown): unknown {
  if (!DRIVER_WTIMEOUT_COMMANDS.has(String(commandName))) return command;
  const expectedWc = (expected as { writeConcern?: unknown } | undefined)?.writeConcern;
  const actualWc = (command as { writeConcern?: unknown } | undefined)?.writeConcern;
  if (!isPlainRecord(expectedWc) || Object.hasOwn(expectedWc, 'wtimeout') || !isPlainRecord(actualWc)) return command;
  if (Number(actualWc.wtimeout) !== DRIVER_WTIMEOUT_MS) return command;
  const { wtimeout: _driverAdded, ...rest } = actualWc;
  return { ...(command as Record<string, unknown>), writeConcern: rest };
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !('_bsontype' in value);
}

/** Null when one observed event satisfies one expected event, else its differences. */
export function eventDifference(
  expected: Record<string, Record<string, unknown>>,
  observed: ObservedEvent,
  matcher: Matcher,
): string | null {
  const [name, assertions = {}] = Object.entries(expected)[0] ?? [];
  if (observed.name !== name)
    return `expected ${name}, observed ${observed.name} (${String(observed.event.commandName ?? '')})`;
  const event = observed.event;
  const differences: string[] = [];
  for (const [key, value] of Object.entries(assertions)) {
    let difference: string | null = null;
    switch (key) {
      case 'command':
        difference = matcher.matchRoot(value, withoutDriverWtimeout(event.commandName, value, event.command), key);
        break;
      case 'reply':
        difference = matcher.matchRoot(value, event[key], key);
        break;
      case 'commandName':
      case 'databaseName':
      case 'reason':
      case 'interruptInUseConnections':
        if (event[key] !== value) difference = `${key}: expected ${String(value)}, got ${String(event[key])}`;
        break;
      case 'previousDescription':
      case 'newDescription': {
        // An expected server or topology description names its type only (expectedSdamEvent).
        const { type, ...rest } = value as { type?: unknown };
        if (Object.keys(rest).length > 0)
          unsupported(`the event assertion ${name}.${key}.${Object.keys(rest).join(',')}`);
        const actualType = (event[key] as { type?: unknown } | undefined)?.type;
        if (type !== undefined && actualType !== type)
          difference = `${key}.type: expected ${String(type)}, got ${String(actualType)}`;
        break;
      }
      case 'awaited':
        if (event.awaited !== value) difference = `awaited: expected ${String(value)}, got ${String(event.awaited)}`;
        break;
      case 'hasServiceId':
        if (hasServiceId(event) !== value) difference = `hasServiceId: expected ${String(value)}`;
        break;
      case 'hasServerConnectionId':
        if (hasServerConnectionId(event) !== value) difference = `hasServerConnectionId: expected ${String(value)}`;
        break;
      default:
        unsupported(`the event assertion ${name}.${key}`);
    }
    const label = `${name}${event.commandName ? ` (${String(event.commandName)})` : ''}`;
    if (difference !== null) differences.push(...difference.split('\n').map((line) => `${label}: ${line}`));
  }
  return differences.length === 0 ? null : differences.join('\n');
}

export function eventsDifference(
  expectation: ExpectedEventsForClient,
  entities: EntityMap,
  matcher: Matcher,
): string | null {
  const eventType = expectation.eventType ?? 'command';
  const names =
    eventType === 'command' ? COMMAND_EVENT_NAMES : eventType === 'cmap' ? CMAP_EVENT_NAMES : SDAM_EVENT_NAMES;
  const observed = entities.get(expectation.client, 'client').events.filter((e) => names.has(e.name));
  const expected = expectation.events;
  const where = `expectEvents[${expectation.client}]`;
  const summary = () =>
    observed.map((e) => `${e.name.replace('Event', '')}:${String(e.event.commandName ?? '')}`).join(', ');
  const countOk = expectation.ignoreExtraEvents
    ? observed.length >= expected.length
    : observed.length === expected.length;
  const differences: string[] = [];
  if (!countOk)
    differences.push(`${where}: expected ${expected.length} events, observed ${observed.length}: [${summary()}]`);
  for (let i = 0; i < Math.min(expected.length, observed.length); i += 1) {
    const difference = eventDifference(expected[i]!, observed[i]!, matcher);
    if (difference !== null) differences.push(...difference.split('\n').map((line) => `${where}[${i}] ${line}`));
  }
  return differences.length === 0 ? null : differences.join('\n');
}
