// A client entity: a MongoClient on the URI under test plus the events it observed, filtered as
// the unified test format says (ignored commands, configureFailPoint, sensitive commands).
import { MongoClient, type MongoClientOptions } from 'mongodb';
import { plain } from './commonOptions.ts';
import { unsupported } from './outcomes.ts';

export interface ClientEntityDefinition {
  id: string;
  uriOptions?: Record<string, unknown>;
  useMultipleMongoses?: boolean;
  observeEvents?: string[];
  ignoreCommandMonitoringEvents?: string[];
  observeSensitiveCommands?: boolean;
  storeEventsAsEntities?: unknown;
  observeLogMessages?: unknown;
  serverApi?: { version: string; strict?: boolean; deprecationErrors?: boolean };
  autoEncryptOpts?: unknown;
}

/** One observed event: its unified-format name (e.g. `commandStartedEvent`) and the driver's object. */
export interface ObservedEvent {
  name: string;
  event: Record<string, unknown>;
}

const COMMAND_EVENTS: Record<string, string> = {
  commandStarted: 'commandStartedEvent',
  commandSucceeded: 'commandSucceededEvent',
  commandFailed: 'commandFailedEvent',
};

const CMAP_EVENTS: Record<string, string> = {
  connectionPoolCreated: 'poolCreatedEvent',
  connectionPoolReady: 'poolReadyEvent',
  connectionPoolCleared: 'poolClearedEvent',
  connectionPoolClosed: 'poolClosedEvent',
  connectionCreated: 'connectionCreatedEvent',
  connectionReady: 'connectionReadyEvent',
  connectionClosed: 'connectionClosedEvent',
  connectionCheckOutStarted: 'connectionCheckOutStartedEvent',
  connectionCheckOutFailed: 'connectionCheckOutFailedEvent',
  connectionCheckedOut: 'connectionCheckedOutEvent',
  connectionCheckedIn: 'connectionCheckedInEvent',
};

export const CMAP_EVENT_NAMES = new Set(Object.values(CMAP_EVENTS));

// SDAM events (schema 1.10, 1.14, 1.17, 1.20), recorded as the unified format asserts them: a
// description by its `type` only, a heartbeat by `awaited`.
const SDAM_EVENTS: Record<string, string> = {
  serverDescriptionChanged: 'serverDescriptionChangedEvent',
  topologyDescriptionChanged: 'topologyDescriptionChangedEvent',
  serverHeartbeatStarted: 'serverHeartbeatStartedEvent',
  serverHeartbeatSucceeded: 'serverHeartbeatSucceededEvent',
  serverHeartbeatFailed: 'serverHeartbeatFailedEvent',
  topologyOpening: 'topologyOpeningEvent',
  topologyClosed: 'topologyClosedEvent',
};

export const SDAM_EVENT_NAMES = new Set(Object.values(SDAM_EVENTS));

function sdamRecord(event: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const key of ['previousDescription', 'newDescription'] as const) {
    const description = event[key] as { type?: unknown } | undefined;
    if (description !== undefined) record[key] = { type: description.type };
  }
  if (typeof event.awaited === 'boolean') record.awaited = event.awaited;
  return record;
}

// Command Logging and Monitoring spec, "Security": these commands are never observed unless asked.
const SENSITIVE_COMMANDS = new Set([
  'authenticate',
  'saslstart',
  'saslcontinue',
  'getnonce',
  'createuser',
  'updateuser',
  'copydbgetnonce',
  'copydbsaslstart',
  'copydb',
]);
const HELLO_COMMANDS = new Set(['hello', 'ismaster']);

/** A bound on what one client may record, so a runaway test fails instead of eating memory. */
const EVENTS_PER_CLIENT_MAX = 100_000;

export class ClientEntity {
  readonly events: ObservedEvent[] = [];
  /** Every commandStartedEvent, for the lsid assertions (observed or not by expectEvents). */
  readonly startedCommands: Array<Record<string, unknown>> = [];
  private observing = true;

  private constructor(
    readonly id: string,
    readonly client: MongoClient,
  ) {}

  static async create(definition: ClientEntityDefinition, baseUri: string): Promise<ClientEntity> {
    if (definition.storeEventsAsEntities !== undefined) unsupported('client storeEventsAsEntities');
    if (definition.observeLogMessages !== undefined) unsupported('client observeLogMessages');
    if (definition.autoEncryptOpts !== undefined) unsupported('client autoEncryptOpts (CSFLE)');
    const observe = new Set(definition.observeEvents ?? []);
    for (const name of observe) {
      if (!Object.values(COMMAND_EVENTS).includes(name) && !CMAP_EVENT_NAMES.has(name) && !SDAM_EVENT_NAMES.has(name))
        unsupported(`observing ${name}`);
    }
    // Int64 values arrive as bigint, never as JS numbers, so `$$type: "long"` is told from an int
    // or a double (the Node driver's own runner promotes them and cannot tell).
    // No connection checked out by connect() (the Node driver's ping on connect), as the driver's own
    // unified runner sets: the format's clients connect lazily, and SDAM/CMAP tests count every
    // connection and check-in (a handshake a fail point must catch is the first operation's).
    const options = { monitorCommands: true, useBigInt64: true, __skipPingOnConnect: true } as MongoClientOptions;
    if (definition.serverApi !== undefined) options.serverApi = definition.serverApi as MongoClientOptions['serverApi'];
    const client = new MongoClient(withUriOptions(baseUri, definition.uriOptions ?? {}), options);
    const entity = new ClientEntity(definition.id, client);
    const ignored = new Set([
      'configurefailpoint',
      ...(definition.ignoreCommandMonitoringEvents ?? []).map((c) => c.toLowerCase()),
    ]);
    for (const [driverName, name] of Object.entries(COMMAND_EVENTS)) {
      client.on(driverName as 'commandStarted', (event) => {
        const record = snapshotEvent(event as unknown as Record<string, unknown>);
        const commandName = String(record.commandName).toLowerCase();
        if (ignored.has(commandName)) return;
        if (!definition.observeSensitiveCommands && isSensitive(commandName, record)) return;
        if (name === 'commandStartedEvent' && entity.observing) entity.startedCommands.push(record);
        if (observe.has(name)) entity.record(name, record);
      });
    }
    for (const [driverName, name] of Object.entries(CMAP_EVENTS)) {
      if (observe.has(name))
        client.on(driverName as 'connectionCreated', (event) =>
          entity.record(name, event as unknown as Record<string, unknown>),
        );
    }
    // Attached before connect(): the opening and the first description changes are events too.
    for (const [driverName, name] of Object.entries(SDAM_EVENTS)) {
      if (observe.has(name))
        client.on(driverName as 'topologyOpening', (event) =>
          entity.record(name, sdamRecord(event as unknown as Record<string, unknown>)),
        );
    }
    await client.connect();
    return entity;
  }

  private record(name: string, event: Record<string, unknown>): void {
    if (!this.observing) return;
    if (this.events.length >= EVENTS_PER_CLIENT_MAX)
      throw new Error(`client ${this.id} observed more than ${EVENTS_PER_CLIENT_MAX} events`);
    this.events.push({ name, event });
  }

  /** Stop recording: cleanup commands (killCursors, endSessions) are not part of the test. */
  stopObserving(): void {
    this.observing = false;
  }

  /** The test's own `close` operation: what the driver emits while closing is part of the test. */
  async closeObserved(): Promise<void> {
    await this.client.close(true);
  }

  async close(): Promise<void> {
    this.stopObserving();
    await this.client.close(true).catch(() => undefined);
  }
}

/**
 * A copy of an event as it is when emitted: the driver keeps references to option objects it
 * changes later (a transaction's readConcern gains afterClusterTime for the next one), and the
 * recorded command must show what was sent. BSON values, dates and bytes are immutable and shared.
 */
export function snapshotEvent(event: Record<string, unknown>): Record<string, unknown> {
  const copy = snapshotValue(event) as Record<string, unknown>;
  // The driver's getters (e.g. commandName on some versions) are kept as plain values.
  for (const key of [
    'name',
    'commandName',
    'databaseName',
    'requestId',
    'serviceId',
    'serverConnectionId',
    'address',
  ]) {
    if (!Object.hasOwn(copy, key) && (event as Record<string, unknown>)[key] !== undefined) copy[key] = event[key];
  }
  return copy;
}

function snapshotValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(snapshotValue);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, snapshotValue(v)]));
  if ('_bsontype' in value || value instanceof Date || value instanceof RegExp || value instanceof Uint8Array)
    return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, snapshotValue(v)]));
}

function isSensitive(commandName: string, event: Record<string, unknown>): boolean {
  if (SENSITIVE_COMMANDS.has(commandName)) return true;
  if (!HELLO_COMMANDS.has(commandName)) return false;
  // hello is sensitive only with speculativeAuthenticate; the driver then redacts it to {}.
  const body = (event.command ?? event.reply) as Record<string, unknown> | undefined;
  return body !== undefined && Object.keys(body).length === 0;
}

/** The base URI with the entity's uriOptions applied; entity options win over the base ones. */
export function withUriOptions(baseUri: string, uriOptions: Record<string, unknown>): string {
  const [head, query = ''] = baseUri.split('?', 2) as [string, string?];
  const params = new Map<string, string>();
  for (const pair of query.split('&').filter(Boolean)) {
    const [key, value = ''] = pair.split('=', 2) as [string, string?];
    params.set(key, value);
  }
  for (const [key, rawValue] of Object.entries(uriOptions)) {
    const value = plain(rawValue);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      unsupported(`uriOptions.${key} as a document ($$placeholder)`);
    for (const existing of [...params.keys()])
      if (existing.toLowerCase() === key.toLowerCase()) params.delete(existing);
    const text = Array.isArray(value) ? value.map(String).join(',') : String(value);
    params.set(key, encodeURIComponent(text));
  }
  const path = head.includes('/', head.indexOf('//') + 2) ? head : `${head}/`;
  const search = [...params].map(([key, value]) => `${key}=${value}`).join('&');
  return search ? `${path}?${search}` : path;
}
