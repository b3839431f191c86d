// `npm start`: read the configuration, start the server, and stop it on SIGINT/SIGTERM. The one
// shutdown path of the process (Apollo's own signal handling is off).
import 'reflect-metadata';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './observability/logger.ts';
import { startServer } from './server/startServer.ts';

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(78); // EX_CONFIG
}

const logger = createLogger({ level: config.logLevel });
const server = await startServer({ config, logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'start-up failed');
  process.exit(1);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    logger.info({ signal }, 'shutting down');
    server.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.fatal({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
