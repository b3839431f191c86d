import type { MongoClient, TopologyDescription } from 'mongodb';

/**
 * Whether the driver knows a writable primary now (its SDAM view, kept by the monitors' hellos,
 * no round trip): true or false on a replica set, null elsewhere (a standalone, mongos) or before
 * discovery. The topology is the client's own field; the driver exposes it only through events,
 * so it is read here, in one place.
 */
export function replicaSetHasPrimary(client: MongoClient): boolean | null {
  const type = (client as unknown as { topology?: { description?: TopologyDescription } }).topology?.description?.type;
  if (type === 'ReplicaSetWithPrimary') return true;
  if (type === 'ReplicaSetNoPrimary') return false;
  return null;
}
