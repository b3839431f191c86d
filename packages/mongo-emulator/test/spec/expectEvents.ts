// expectEvents: the events a client observed, in order, against the expected ones.
import { CMAP_EVENT_NAMES, type ObservedEvent } from './clientEntity.ts';
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

/** Null when one observed event satisfies one expected event, else the first difference. */
function eventDifference(expected: Record<string, Record<string, unknown>>, observed: ObservedEvent, matcher: Matcher): string | null {
  const [name, assertions = {}] = Object.entries(expected)[0] ?? [];
  if (observed.name !== name) return `expected ${name}, observed ${observed.name} (${String(observed.event.commandName ?? '')})`;
  const event = observed.event;
  for (const [key, value] of Object.entries(assertions)) {
    let difference: string | null = null;
    switch (key) {
      case 'command':
      case 'reply':
        difference = matcher.matchRoot(value, event[key], key);
        break;
      case 'commandName':
      case 'databaseName':
      case 'reason':
      case 'interruptInUseConnections':
        if (event[key] !== value) difference = `${key}: expected ${String(value)}, got ${String(event[key])}`;
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
    if (difference !== null) return `${name}${event.commandName ? ` (${String(event.commandName)})` : ''}: ${difference}`;
  }
  return null;
}

export function eventsDifference(expectation: ExpectedEventsForClient, entities: EntityMap, matcher: Matcher): string | null {
  const eventType = expectation.eventType ?? 'command';
  if (eventType === 'sdam') unsupported('SDAM event expectations');
  const names = eventType === 'command' ? COMMAND_EVENT_NAMES : CMAP_EVENT_NAMES;
  const observed = entities.get(expectation.client, 'client').events.filter((e) => names.has(e.name));
  const expected = expectation.events;
  const where = `expectEvents[${expectation.client}]`;
  const summary = () => observed.map((e) => `${e.name.replace('Event', '')}:${String(e.event.commandName ?? '')}`).join(', ');
  const countOk = expectation.ignoreExtraEvents ? observed.length >= expected.length : observed.length === expected.length;
  for (let i = 0; i < Math.min(expected.length, observed.length); i += 1) {
    const difference = eventDifference(expected[i]!, observed[i]!, matcher);
    if (difference !== null) return `${where}[${i}] ${difference}`;
  }
  if (!countOk) return `${where}: expected ${expected.length} events, observed ${observed.length}: [${summary()}]`;
  return null;
}
