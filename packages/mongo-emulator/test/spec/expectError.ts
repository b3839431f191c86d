// expectError: every key of the format's expectedError, checked against a driver error. Bulk write
// errors aggregate several server errors; codes and messages are looked for in all of them.
import {
  MongoBulkWriteError,
  MongoError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoWriteConcernError,
} from 'mongodb';
import { ErrorCodes } from '../../src/errors.ts';
import { describe } from './bsonTypes.ts';
import type { Matcher } from './matcher.ts';
import { unsupported } from './outcomes.ts';
import { bulkWriteResultDocument } from './operations/results.ts';

export interface ExpectedError {
  isError?: boolean;
  isClientError?: boolean;
  isTimeoutError?: boolean;
  errorContains?: string;
  errorCode?: number;
  errorCodeName?: string;
  errorLabelsContain?: string[];
  errorLabelsOmit?: string[];
  writeErrors?: unknown;
  writeConcernErrors?: unknown;
  errorResponse?: unknown;
  expectResult?: unknown;
}

interface ServerParts {
  codes: number[];
  codeNames: string[];
  messages: string[];
}

/** The codes, code names and messages of every server error a driver error carries. */
function serverParts(error: unknown): ServerParts {
  const parts: ServerParts = { codes: [], codeNames: [], messages: [] };
  if (!(error instanceof Error)) return parts;
  parts.messages.push(error.message);
  if (error instanceof MongoServerError) {
    if (typeof error.code === 'number') parts.codes.push(error.code);
    if (typeof error.codeName === 'string') parts.codeNames.push(error.codeName);
  }
  if (error instanceof MongoBulkWriteError) {
    for (const writeError of Array.isArray(error.writeErrors) ? error.writeErrors : [error.writeErrors]) {
      if (typeof writeError.code === 'number') parts.codes.push(writeError.code);
      parts.messages.push(writeError.errmsg ?? '');
    }
    const concern = error.result?.getWriteConcernError();
    if (concern !== undefined) {
      if (typeof concern.code === 'number') parts.codes.push(concern.code);
      parts.messages.push(concern.errmsg ?? '');
    }
  }
  if (error instanceof MongoWriteConcernError && error.result?.writeConcernError !== undefined) {
    const concern = error.result.writeConcernError as { code?: number; codeName?: string; errmsg?: string };
    if (concern.code !== undefined) parts.codes.push(concern.code);
    if (concern.codeName !== undefined) parts.codeNames.push(concern.codeName);
    if (concern.errmsg !== undefined) parts.messages.push(concern.errmsg);
  }
  return parts;
}

function hasLabel(error: unknown, label: string): boolean {
  return error instanceof MongoError && error.hasErrorLabel(label);
}

/** Null when the error satisfies every assertion, else the first one it does not. */
export function errorDifference(expected: ExpectedError, error: unknown, matcher: Matcher): string | null {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : describe(error);
  const isServerError = error instanceof MongoServerError;
  if (expected.isClientError !== undefined && expected.isClientError === isServerError) {
    return expected.isClientError
      ? `expected a client error, got a server error (${text})`
      : `expected a server error, got a client error (${text})`;
  }
  const isTimeout = error instanceof MongoOperationTimeoutError;
  if (expected.isTimeoutError !== undefined && expected.isTimeoutError !== isTimeout) {
    return `expected ${expected.isTimeoutError ? 'a' : 'no'} timeout error, got ${text}`;
  }
  const parts = serverParts(error);
  if (expected.errorContains !== undefined) {
    const needle = expected.errorContains.toLowerCase();
    if (!parts.messages.some((m) => m.toLowerCase().includes(needle)))
      return `error message does not contain "${expected.errorContains}": ${text}`;
  }
  if (expected.errorCode !== undefined && !parts.codes.includes(Number(expected.errorCode))) {
    return `expected error code ${expected.errorCode}, got ${parts.codes.join(',') || 'none'} (${text})`;
  }
  if (expected.errorCodeName !== undefined) {
    const name = expected.errorCodeName.toLowerCase();
    // Write errors carry a code but no codeName: translate the name (the format allows it).
    const code = (ErrorCodes as Record<string, number>)[expected.errorCodeName];
    const named =
      parts.codeNames.some((n) => n.toLowerCase() === name) ||
      (code !== undefined && error instanceof MongoBulkWriteError && parts.codes.includes(code));
    if (!named)
      return `expected error code name ${expected.errorCodeName}, got ${parts.codeNames.join(',') || 'none'} (${text})`;
  }
  for (const label of expected.errorLabelsContain ?? []) {
    if (!hasLabel(error, label))
      return `expected error label ${label}, got ${describe(error instanceof MongoError ? error.errorLabels : [])} (${text})`;
  }
  for (const label of expected.errorLabelsOmit ?? []) {
    if (hasLabel(error, label)) return `expected no error label ${label} (${text})`;
  }
  if (expected.writeErrors !== undefined || expected.writeConcernErrors !== undefined) {
    unsupported('expectError.writeErrors/writeConcernErrors (clientBulkWrite errors)');
  }
  if (expected.errorResponse !== undefined) {
    const response = isServerError ? (error as MongoServerError).errorResponse : undefined;
    if (response === undefined) return `expected a server error response, got ${text}`;
    const difference = matcher.matchRoot(expected.errorResponse, response, 'errorResponse');
    if (difference !== null) return difference;
  }
  if (expected.expectResult !== undefined) {
    const result = error instanceof MongoBulkWriteError ? bulkWriteResultDocument(error.result) : undefined;
    const difference = matcher.matchRoot(expected.expectResult, result, 'error result');
    if (difference !== null) return difference;
  }
  return null;
}
