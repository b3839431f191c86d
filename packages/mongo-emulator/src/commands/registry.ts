import { buildInfo } from './buildInfo.ts';
import { hello } from './hello.ts';
import { ping } from './ping.ts';
import type { CommandDefinition } from './types.ts';

/** Every command the emulator answers, sorted by name. */
const SUPPORTED: readonly CommandDefinition[] = [buildInfo, hello, ping];

/**
 * Commands mongod has that the emulator refuses on purpose, with the reason given to the
 * client, so that the answer is CommandNotSupported rather than a misleading CommandNotFound.
 */
const UNSUPPORTED: Readonly<Record<string, string>> = Object.freeze({
  abortTransaction: 'multi-document transactions are not supported by mongo-emulator yet',
  authenticate: 'mongo-emulator has no authentication',
  commitTransaction: 'multi-document transactions are not supported by mongo-emulator yet',
  compact: 'mongo-emulator has no storage to compact',
  eval: 'server-side JavaScript is not supported',
  mapReduce: 'mapReduce is not supported by mongo-emulator; use aggregate',
  saslContinue: 'mongo-emulator has no authentication',
  saslStart: 'mongo-emulator has no authentication',
  shutdown: 'stop mongo-emulator through its process or its stop() API',
});

export type CommandLookup =
  | { kind: 'supported'; definition: CommandDefinition }
  | { kind: 'unsupported'; reason: string }
  | { kind: 'unknown' };

export class CommandRegistry {
  private readonly byName = new Map<string, CommandDefinition>();

  constructor(definitions: readonly CommandDefinition[] = SUPPORTED) {
    for (const definition of definitions) {
      for (const name of definition.names) {
        if (this.byName.has(name)) throw new Error(`command ${name} registered twice`);
        this.byName.set(name, definition);
      }
    }
  }

  /** Case-sensitive, as in mongod: only the aliases a definition lists are accepted. */
  lookup(name: string): CommandLookup {
    const definition = this.byName.get(name);
    if (definition) return { kind: 'supported', definition };
    const reason = Object.hasOwn(UNSUPPORTED, name) ? UNSUPPORTED[name] : undefined;
    if (reason !== undefined) return { kind: 'unsupported', reason };
    return { kind: 'unknown' };
  }

  /** Sorted names of every supported command (aliases included). */
  names(): string[] {
    return [...this.byName.keys()].sort();
  }
}
