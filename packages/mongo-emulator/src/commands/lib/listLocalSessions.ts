import { createHash } from 'node:crypto';
import { Binary } from 'bson';
import type { Document } from '../../engine/types.ts';
import { CommandError } from '../../errors.ts';
import { isPlainObject } from '../../engine/updatePath.ts';
import type { SessionRegistry } from '../../session/SessionRegistry.ts';

/** Without authentication every session belongs to the empty user, whose uid is SHA-256 of ''. */
const ANONYMOUS_UID = new Binary(createHash('sha256').update('').digest(), Binary.SUBTYPE_DEFAULT);

/**
 * A pipeline that starts with `$listLocalSessions`, rewritten to start with `$documents` of the
 * session cache's entries (`{_id: {id, uid}, lastUse}`), as mongod lists them; any other
 * pipeline is returned as it is.
 */
export function expandListLocalSessions(
  collectionless: boolean,
  pipeline: Document[],
  sessions: SessionRegistry,
): Document[] {
  const [first, ...rest] = pipeline;
  if (!isPlainObject(first) || !('$listLocalSessions' in first)) return pipeline;
  // document_source_list_local_sessions.cpp: any database, but with {aggregate: 1}.
  if (!collectionless) {
    throw new CommandError(
      'InvalidNamespace',
      '$listLocalSessions must be run against the database with {aggregate: 1}, not a collection',
    );
  }
  const spec = first.$listLocalSessions;
  if (!isPlainObject(spec)) throw new CommandError('TypeMismatch', '$listLocalSessions must be an object');
  // Named users other than the anonymous one own no session here.
  const onlyOthers = Array.isArray(spec.users) && spec.users.length > 0;
  const listed = onlyOthers
    ? []
    : sessions.list().map(({ id, lastUse }) => ({ _id: { id, uid: ANONYMOUS_UID }, lastUse }));
  return [{ $documents: listed }, ...rest];
}
