/**
 * A message that cannot be read. The connection that sent it is closed (as mongod does); the
 * server keeps serving everyone else.
 */
export class WireProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireProtocolError';
  }
}
