/** The server ended a change stream (its collection was dropped or renamed): reopen from now. */
export class InvalidatedError extends Error {
  constructor() {
    super('change stream closed by the server (invalidated)');
    this.name = 'InvalidatedError';
  }
}
