// The one table of MongoDB error codes the emulator answers with, named as in mongod's
// src/mongo/base/error_codes.yml. Constructing a CommandError with a code that is not here is a
// bug, which the type system catches.

export const ErrorCodes = Object.freeze({
  InternalError: 1,
  BadValue: 2,
  NoSuchKey: 4,
  Unauthorized: 13,
  GraphContainsCycle: 5,
  HostUnreachable: 6,
  HostNotFound: 7,
  UnknownError: 8,
  FailedToParse: 9,
  CannotMutateObject: 10,
  UserNotFound: 11,
  UnsupportedFormat: 12,
  TypeMismatch: 14,
  Overflow: 15,
  InvalidLength: 16,
  ProtocolError: 17,
  AuthenticationFailed: 18,
  IllegalOperation: 20,
  EmptyArrayOperation: 21,
  InvalidBSON: 22,
  LockTimeout: 24,
  NamespaceNotFound: 26,
  IndexNotFound: 27,
  PathNotViable: 28,
  NonExistentPath: 29,
  InvalidPath: 30,
  RoleNotFound: 31,
  ConflictingUpdateOperators: 40,
  CursorNotFound: 43,
  NamespaceExists: 48,
  MaxTimeMSExpired: 50,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  NotSingleValueField: 54,
  InvalidDBRef: 55,
  EmptyFieldName: 56,
  DottedFieldName: 57,
  CommandNotFound: 59,
  ImmutableField: 66,
  CannotCreateIndex: 67,
  IndexAlreadyExists: 68,
  InvalidOptions: 72,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  NetworkTimeout: 89,
  OperationFailed: 96,
  WriteConcernFailed: 64,
  UnknownReplWriteConcern: 79,
  ShutdownInProgress: 91,
  UnsatisfiableWriteConcern: 100,
  WriteConflict: 112,
  CommandNotSupported: 115,
  ConflictingOperationInProgress: 117,
  NamespaceNotSharded: 118,
  DocumentValidationFailure: 121,
  NotImplemented: 238,
  CommandFailed: 125,
  InvalidPipelineOperator: 168,
  InvalidViewDefinition: 182,
  OptionNotSupportedOnView: 167,
  CommandNotSupportedOnView: 166,
  ViewDepthLimitExceeded: 165,
  NoSuchSession: 206,
  TransactionTooOld: 225,
  NoSuchTransaction: 251,
  IncompleteTransactionHistory: 217,
  InvalidUUID: 207,
  TooManyLogicalSessions: 261,
  ExceededTimeLimit: 262,
  OperationNotSupportedInTransaction: 263,
  TransactionCommitted: 256,
  TransactionTooLarge: 257,
  SnapshotTooOld: 239,
  SnapshotUnavailable: 246,
  PreparedTransactionInProgress: 267,
  ChangeStreamFatalError: 280,
  ChangeStreamHistoryLost: 286,
  TransactionExceededLifetimeLimitSeconds: 290,
  NoQueryExecutionPlans: 291,
  APIStrictError: 323,
  Interrupted: 11601,
  InterruptedAtShutdown: 11600,
  InterruptedDueToReplStateChange: 11602,
  DuplicateKey: 11000,
  NotWritablePrimary: 10107,
  NotPrimaryNoSecondaryOk: 13435,
  NotPrimaryOrSecondary: 13436,
  StaleConfig: 13388,
  Location16020: 16020,
  Location16612: 16612,
  Location17276: 17276,
  Location31253: 31253,
  Location31254: 31254,
  Location51091: 51091,
  Location16755: 16755,
  Location40323: 40323,
  Location40324: 40324,
  Location40601: 40601,
  Location13113: 13113,
  Location40352: 40352,
  Location40414: 40414,
  Location40415: 40415,
  Location51024: 51024,
  Location31368: 31368,
  Location51760: 51760,
  Location40571: 40571,
  UnsupportedOpQueryCommand: 352,
  SocketException: 9001,
  PrimarySteppedDown: 189,
  NetworkInterfaceExceededTimeLimit: 202,
  RetryChangeStream: 234,
  FailedToSatisfyReadPreference: 133,
  ReadConcernMajorityNotEnabled: 148,
  InvalidReplicaSetConfig: 93,
  NotYetInitialized: 94,
  LockFailed: 107,
  InvalidIndexSpecificationOption: 197,
  CannotIndexParallelArrays: 171,
  StaleEpoch: 150,
  ClientMarkedKilled: 46841,
  CursorKilled: 237,
  QueryPlanKilled: 175,
  BSONObjectTooLarge: 10334,
  InvalidSyncSource: 10148,
  ExceededMemoryLimit: 146,
  // Change streams (src/changes).
  CappedPositionLost: 136,
  NoMatchingDocument: 47,
  InvalidResumeToken: 260,
  Location40602: 40602,
  Location40647: 40647,
  Location40674: 40674,
  Location50808: 50808,
  Location50865: 50865,
  // Replica-set configuration and elections (error_codes.yml).
  AlreadyInitialized: 23,
  NoReplicationEnabled: 76,
  NotSecondary: 92,
  NewReplicaSetConfigurationIncompatible: 103,
  InconsistentReplicaSetNames: 113,
} as const);

export type ErrorCodeName = keyof typeof ErrorCodes;

const CODE_NAMES = new Map<number, string>(Object.entries(ErrorCodes).map(([name, code]) => [code, name]));

/** A code's name as mongod gives it; codes outside the table are named `Location<code>`. */
export function codeNameOf(code: number): string {
  return CODE_NAMES.get(code) ?? `Location${code}`;
}

/**
 * A command failure as mongod reports it: `{ ok: 0, errmsg, code, codeName, errorLabels? }`.
 * Extra fields (keyPattern, keyValue, errInfo, writeConcernError...) ride along in `extra`.
 */
export class CommandError extends Error {
  readonly code: number;
  readonly codeName: string;
  readonly errorLabels: string[];
  readonly extra: Record<string, unknown>;

  constructor(
    codeName: ErrorCodeName,
    message: string,
    options: { errorLabels?: string[]; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'CommandError';
    this.codeName = codeName;
    this.code = ErrorCodes[codeName];
    this.errorLabels = options.errorLabels ?? [];
    this.extra = options.extra ?? {};
  }

  /**
   * An error whose code a client chose (fail points inject any code mongod could answer with);
   * everything the server decides itself goes through the table.
   */
  static withCode(
    code: number,
    message: string,
    options: { errorLabels?: string[]; extra?: Record<string, unknown> } = {},
  ): CommandError {
    const error = new CommandError('InternalError', message, options);
    return Object.assign(error, { code, codeName: codeNameOf(code) });
  }

  /** The reply document for this error. */
  toReply(): Record<string, unknown> {
    const reply: Record<string, unknown> = {
      ok: 0,
      errmsg: this.message,
      code: this.code,
      codeName: this.codeName,
      ...this.extra,
    };
    if (this.errorLabels.length > 0) reply.errorLabels = [...this.errorLabels];
    return reply;
  }
}
