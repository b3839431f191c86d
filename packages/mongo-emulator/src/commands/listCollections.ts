import { oplogCollectionInfo } from '../changes/index.ts';
import type { Document } from '../engine/types.ts';
import { compileFilter } from '../engine/match.ts';
import { optionalBoolean, optionalCount, optionalDocument } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

export const listCollections: CommandDefinition = {
  names: ['listCollections'],
  run({ command, db, server }) {
    const nameOnly = optionalBoolean(command, 'nameOnly') ?? false;
    const filter = optionalDocument(command, 'filter');
    let infos: Document[] = [
      ...server.catalog.listCollections(db),
      ...(db === 'local' ? [oplogCollectionInfo(server.changeStreams.oplog)] : []),
    ].map((info) => (nameOnly ? { name: info.name, type: info.type } : { ...info }));
    if (filter) {
      const matches = compileFilter(filter, { now: new Date() });
      infos = infos.filter(matches);
    }
    const cursorOptions = optionalDocument(command, 'cursor') ?? {};
    const cursor = server.cursors.open(`${db}.$cmd.listCollections`, infos, {
      batchSize: optionalCount(cursorOptions, 'batchSize'),
    });
    return { cursor };
  },
};
