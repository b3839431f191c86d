import type { CommandDefinition } from './types.ts';

export const dropDatabase: CommandDefinition = {
  names: ['dropDatabase'],
  acceptsWriteConcern: true,
  run({ db, server }) {
    // mongod drops each collection (one oplog entry each), then the database.
    const collections = server.catalog.listCollections(db);
    for (const { name: coll, info } of collections) {
      server.catalog.dropCollection(db, coll);
      server.changeStreams.recordCommand({ op: 'drop', db, coll, collectionUUID: info.uuid });
    }
    server.catalog.dropDatabase(db);
    if (collections.length > 0) server.changeStreams.recordCommand({ op: 'dropDatabase', db });
    return { dropped: db };
  },
};
