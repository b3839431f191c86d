import { calculateObjectSize } from 'bson';
import type { Document } from '../engine/types.ts';
import { compileFilter } from '../engine/match.ts';
import { optionalBoolean, optionalDocument } from '../engine/documentFields.ts';
import type { CommandDefinition } from './types.ts';

export const listDatabases: CommandDefinition = {
  names: ['listDatabases'],
  adminOnly: true,
  run({ command, server }) {
    const { catalog } = server;
    const nameOnly = optionalBoolean(command, 'nameOnly') ?? false;
    const filter = optionalDocument(command, 'filter');
    let databases: Document[] = catalog.listDatabaseNames().map((name) => {
      const sizeOnDisk = catalog
        .listCollections(name)
        .reduce(
          (sum, info) =>
            sum +
            (catalog.getCollection(name, info.name)?.allDocuments() ?? []).reduce(
              (s, d) => s + calculateObjectSize(d),
              0,
            ),
          0,
        );
      return nameOnly ? { name } : { name, sizeOnDisk, empty: sizeOnDisk === 0 };
    });
    if (filter) {
      const matches = compileFilter(filter, { now: new Date() });
      databases = databases.filter(matches);
    }
    if (nameOnly) return { databases };
    const totalSize = databases.reduce((sum, d) => sum + Number(d.sizeOnDisk), 0);
    return { databases, totalSize, totalSizeMb: Math.floor(totalSize / (1024 * 1024)) };
  },
};
