import { parseArgs } from 'node:util';
import { DEFAULT_OPLOG_MAX_ENTRIES, DEFAULT_OPLOG_SIZE_MB, startEmulator, type EmulatorOptions } from './server.ts';
import { DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS, parseTransactionLifetimeLimitSeconds } from './serverParameters.ts';

const USAGE = `Usage: mongo-emulator [--port 27017] [--host 127.0.0.1] [--replSet rs0] [--oplogSizeMB ${DEFAULT_OPLOG_SIZE_MB}] [--oplogMaxEntries ${DEFAULT_OPLOG_MAX_ENTRIES}]
       [--setParameter name=value]...

An in-memory MongoDB-wire-compatible server that the official drivers accept as the primary of a
one-node replica set. For tests and development only: no persistence, no auth, one node.

  --port N              TCP port to listen on (0 picks a free one; default 27017)
  --host H              address to bind (default 127.0.0.1)
  --replSet NAME        replica set name (default rs0)
  --oplogSizeMB N       oplog size in MB, as mongod's: the oldest entries go first (default ${DEFAULT_OPLOG_SIZE_MB})
  --oplogMaxEntries N   oplog entries kept at most (default ${DEFAULT_OPLOG_MAX_ENTRIES})
  --setParameter P=V    a server parameter, as mongod's: transactionLifetimeLimitSeconds=N (default
                        ${DEFAULT_TRANSACTION_LIFETIME_LIMIT_SECONDS}), or enableTestCommands=1 (always on); repeatable
  --help                show this help`;

const EXIT_USAGE = 2;

/** Parses argv into options; a usage error is returned as a message, never thrown. */
export function parseCli(argv: string[]): { help: true } | { options: EmulatorOptions } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string', default: '27017' },
        host: { type: 'string', default: '127.0.0.1' },
        replSet: { type: 'string', default: 'rs0' },
        oplogMaxEntries: { type: 'string', default: String(DEFAULT_OPLOG_MAX_ENTRIES) },
        oplogSizeMB: { type: 'string', default: String(DEFAULT_OPLOG_SIZE_MB) },
        setParameter: { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    return { error: (error as Error).message };
  }
  if (values.help) return { help: true };
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) return { error: `--port must be 0-65535, got '${values.port}'` };
  const oplogMaxEntries = Number(values.oplogMaxEntries);
  if (!Number.isInteger(oplogMaxEntries) || oplogMaxEntries < 1) {
    return { error: `--oplogMaxEntries must be a positive integer, got '${values.oplogMaxEntries}'` };
  }
  const oplogSizeMB = Number(values.oplogSizeMB);
  if (!Number.isFinite(oplogSizeMB) || oplogSizeMB <= 0) return { error: `--oplogSizeMB must be a positive number, got '${values.oplogSizeMB}'` };
  if (!/^[A-Za-z0-9_-]+$/.test(values.replSet)) return { error: `--replSet '${values.replSet}' is not a valid name` };
  const parameters = parseSetParameters(values.setParameter);
  if ('error' in parameters) return parameters;
  return { options: { port, host: values.host, replSetName: values.replSet, oplogMaxEntries, oplogSizeMB, ...parameters } };
}

/** The --setParameter name=value pairs mongod accepts that the emulator knows. */
function parseSetParameters(pairs: string[]): { transactionLifetimeLimitSeconds?: number } | { error: string } {
  const out: { transactionLifetimeLimitSeconds?: number } = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    const value = eq < 0 ? '' : pair.slice(eq + 1);
    if (name === 'transactionLifetimeLimitSeconds') {
      try {
        out.transactionLifetimeLimitSeconds = parseTransactionLifetimeLimitSeconds(value);
      } catch (error) {
        return { error: `--setParameter ${(error as Error).message}` };
      }
    } else if (name === 'enableTestCommands') {
      // Test commands (configureFailPoint, ...) are always on in the emulator.
      if (value !== '1' && value !== 'true') return { error: `--setParameter enableTestCommands=${value}: the emulator always enables test commands` };
    } else {
      return { error: `Illegal --setParameter parameter: "${name}"` };
    }
  }
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const parsed = parseCli(argv);
  if ('help' in parsed) {
    console.log(USAGE);
    return;
  }
  if ('error' in parsed) {
    console.error(`mongo-emulator: ${parsed.error}\n\n${USAGE}`);
    process.exitCode = EXIT_USAGE;
    return;
  }
  const logger = { info: (m: string) => console.log(m), warn: (m: string) => console.warn(`[warn] ${m}`) };
  const emulator = await startEmulator({ ...parsed.options, logger, argv: ['mongo-emulator', ...argv] });
  console.log(
    `mongo-emulator ready on ${emulator.uri} (replica set ${emulator.replSetName}, in-memory; not for production)`,
  );
  const shutdown = (signal: string) => {
    console.log(`mongo-emulator: ${signal} received, stopping`);
    emulator.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}

await main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`mongo-emulator: ${(error as Error).message}`);
  process.exitCode = 1;
});
