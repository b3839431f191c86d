// `npm start`: read the configuration, start the server, and stop it on SIGINT/SIGTERM. The one
// shutdown path of the process (Apollo's own signal handling is off).
//
// The signals and the parent watch are in place before anything heavy loads: a process manager
// that gives up on a slow start and stops npm must not leave this process serving (under load the
// server's modules alone take seconds to load), so the server's modules are imported after them.
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './observability/logger.ts';

// `npm start` runs node under npm (the script `exec`s, so no shell sits between them, and npm
// passes SIGINT/SIGTERM on). Should the parent still die without passing the signal on (an older
// npm, a wrapper shell that does not exec, a manager that SIGKILLs npm), this process is
// re-parented and nobody could stop it by the pid they know: a changed parent stops it as a
// signal would. npm's scripts name the parent they exec from (PRECONDITION_PARENT_PID=$PPID), so
// a parent that died while this process was still loading its modules is seen too.
const parentPid = Number(process.env['PRECONDITION_PARENT_PID']) || process.ppid;

/** What stops the process: before the server is up, the signal's own default (exit at once); after, the server's stop. */
let stopServer: ((reason: Record<string, unknown>) => void) | undefined;
let stopRequested = false;
function requestStop(reason: Record<string, unknown>): void {
  if (stopRequested) return;
  stopRequested = true;
  if (stopServer) stopServer(reason);
  else {
    process.stderr.write(`stopping during start-up (${JSON.stringify(reason)})\n`);
    process.exit(0);
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => requestStop({ signal }));
const checkParent = () => {
  if (process.ppid !== parentPid) requestStop({ reason: 'parent process exited', parentPid });
};
// Now, before any start-up work (a parent that died while this process was being exec'd), then
// every second.
checkParent();
setInterval(checkParent, 1_000).unref();

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG
}

const logger = createLogger({ level: config.logLevel, format: config.logFormat });
// Before the server is built: the hot paths decide once whether they trace (tracing.ts).
const { startTracing } = await import('./observability/tracing.ts');
const tracing = config.otlpEndpoint
  ? startTracing({
      endpoint: config.otlpEndpoint,
      serviceName: config.otelServiceName,
      warn: (fields, message) => logger.warn(fields, message),
    })
  : null;
if (tracing) logger.info({ endpoint: config.otlpEndpoint }, 'tracing: spans exported over OTLP/HTTP');
/** Exit code for a port already in use (EADDRINUSE's errno on Linux): nothing else was started. */
const EXIT_ADDRESS_IN_USE = 98;

const { startServer } = await import('./server/startServer.ts');
const server = await startServer({ config, logger }).catch((error: unknown) => {
  if ((error as { code?: unknown } | null)?.code === 'EADDRINUSE') {
    const message = `port ${config.port} on ${config.host} is already in use (EADDRINUSE): stop the process that holds it, or set PORT to another port (PORT=0 picks a free one)`;
    logger.fatal({ port: config.port, host: config.host }, message);
    process.stderr.write(`${message}\n`);
    process.exit(EXIT_ADDRESS_IN_USE);
  }
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
});

/** How long shutdown waits for the trace exporter's last flush: an unreachable collector must not hold the exit (tracing.ts). */
const TRACING_FLUSH_MS = 2_000;

stopServer = (reason) => {
  logger.info(reason, 'shutting down');
  server
    .stop()
    .then(() => tracing?.shutdown({ timeoutMs: TRACING_FLUSH_MS }))
    .then(
      () => process.exit(0),
      (error: unknown) => {
        logger.fatal({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
};
