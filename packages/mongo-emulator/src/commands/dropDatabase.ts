import type { CommandDefinition } from './types.ts';

export const dropDatabase: CommandDefinition = {
  names: ['dropDatabase'],
  acceptsWriteConcern: true,
  run({ db, server }) {
    server.catalog.dropDatabase(db);
    return { dropped: db };
  },
};
