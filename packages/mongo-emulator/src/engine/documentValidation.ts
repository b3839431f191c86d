// Collection validators (create/collMod `validator`, `validationLevel`, `validationAction`) and
// the DocumentValidationFailure (121) mongod 5.0+ answers, whose errInfo says which document
// failed and which top-level clauses of the validator it did not satisfy.
import { CommandError } from '../errors.ts';
import { compileFilter, valuesAtPath, type MatchContext } from './match.ts';
import { typeName } from './numeric.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

export interface ValidationOptions {
  validator?: Document;
  validationLevel?: 'off' | 'strict' | 'moderate';
  validationAction?: 'error' | 'warn';
}

const LEVELS = new Set(['off', 'strict', 'moderate']);
const ACTIONS = new Set(['error', 'warn']);

/** Checks validator options as create and collMod receive them (the validator must compile). */
export function checkValidationOptions(options: Document, ctx: MatchContext): void {
  const { validator, validationLevel, validationAction } = options;
  if (validator !== undefined) {
    if (!isPlainObject(validator))
      throw new CommandError('TypeMismatch', "BSON field 'validator' is the wrong type, expected type 'object'");
    compileFilter(validator, ctx);
  }
  if (validationLevel !== undefined && !LEVELS.has(String(validationLevel))) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(validationLevel)}' for field 'validationLevel' is not a valid value.`,
    );
  }
  if (validationAction !== undefined && !ACTIONS.has(String(validationAction))) {
    throw new CommandError(
      'BadValue',
      `Enumeration value '${String(validationAction)}' for field 'validationAction' is not a valid value.`,
    );
  }
}

/**
 * Throws DocumentValidationFailure when `after` fails the collection's validator. At level
 * `moderate` an update of a document that already failed is let through; action `warn` only
 * lets it through (mongod logs it).
 */
export function enforceValidator(
  options: ValidationOptions,
  before: Document | undefined,
  after: Document,
  ctx: MatchContext,
): void {
  const { validator } = options;
  const level = options.validationLevel ?? 'strict';
  if (!validator || Object.keys(validator).length === 0 || level === 'off' || options.validationAction === 'warn')
    return;
  const test = compileFilter(validator, ctx);
  if (test(after)) return;
  if (level === 'moderate' && before !== undefined && !test(before)) return;
  throw new CommandError('DocumentValidationFailure', 'Document failed validation', {
    extra: { errInfo: { failingDocumentId: after._id, details: failureDetails(validator, after, ctx) } },
  });
}

/** The `details` of errInfo: the clause that failed, or `$and` over the clauses that failed. */
function failureDetails(validator: Document, doc: Document, ctx: MatchContext): Document {
  const failed = Object.entries(validator)
    .map(([key, value], index) => ({ index, clause: { [key]: value } }))
    .filter(({ clause }) => !compileFilter(clause, ctx)(doc));
  if (Object.keys(validator).length === 1 && failed.length === 1) return clauseDetails(failed[0]!.clause, doc);
  return {
    operatorName: '$and',
    clausesNotSatisfied: failed.map(({ index, clause }) => ({ index, details: clauseDetails(clause, doc) })),
  };
}

function clauseDetails(clause: Document, doc: Document): Document {
  const [key, condition] = Object.entries(clause)[0]!;
  if (key.startsWith('$')) return { operatorName: key, specifiedAs: clause, reason: 'expression did not match' };
  const operator =
    isPlainObject(condition) && Object.keys(condition)[0]?.startsWith('$') ? Object.keys(condition)[0]! : '$eq';
  const values = valuesAtPath(doc, key, false);
  const details: Document = { operatorName: operator, specifiedAs: clause };
  if (values.length === 1 && values[0] === undefined) return { ...details, reason: 'field was missing' };
  const consideredValue = values.length === 1 ? values[0] : values;
  if (operator === '$type')
    return { ...details, reason: 'type did not match', consideredValue, consideredType: typeName(consideredValue) };
  return { ...details, reason: 'comparison failed', consideredValue };
}
