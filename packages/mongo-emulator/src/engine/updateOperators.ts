// The update operators, each applied at one concrete path of a copy-on-write draft. Messages and codes
// follow mongod's update nodes (src/mongo/db/update/*_node.cpp).
import type { Timestamp } from 'bson';
import { CommandError } from '../errors.ts';
import { compareValues, valuesEqual } from './compare.ts';
import { formatValue } from './format.ts';
import { compileFilter, type MatchContext } from './match.ts';
import { addNumbers, isNumeric, multiplyNumbers, numericKind, toDouble, typeName } from './numeric.ts';
import { getAt, isPlainObject, setAt, unsetAt, type Draft } from './updatePath.ts';
import type { Document } from './types.ts';

export interface OperatorContext {
  now: Date;
  clusterTime: Timestamp;
  isUpsertInsert: boolean;
  match: MatchContext;
}

type Apply = (draft: Draft, parts: string[], arg: unknown, ctx: OperatorContext) => void;

const idOf = (doc: Document): string => `_id: ${formatValue(doc._id)}`;
const fieldName = (parts: string[]): string => parts[parts.length - 1]!;

function arithmetic(op: '$inc' | '$mul', combine: (a: unknown, b: unknown) => unknown): Apply {
  return (draft, parts, arg) => {
    const current = getAt(draft.root, parts);
    if (current === undefined) {
      // A missing field takes the argument ($inc) or a zero of the argument's type ($mul).
      setAt(draft, parts, op === '$inc' ? arg : multiplyNumbers(arg, 0));
      return;
    }
    if (!isNumeric(current)) {
      throw new CommandError(
        'TypeMismatch',
        `Cannot apply ${op} to a value of non-numeric type. {${idOf(draft.root)}} has the field '${fieldName(parts)}' of non-numeric type ${typeName(current)}`,
      );
    }
    const result = combine(current, arg);
    if (result === undefined) {
      const shown =
        numericKind(current) === 'long' ? `(NumberLong)${String(current)}` : `(NumberInt)${String(current)}`;
      throw new CommandError(
        'BadValue',
        `Failed to apply ${op} operations to current value (${shown}) for document {${idOf(draft.root)}}`,
      );
    }
    setAt(draft, parts, result);
  };
}

function extremum(keepIf: (c: number) => boolean): Apply {
  return (draft, parts, arg) => {
    const current = getAt(draft.root, parts);
    if (current === undefined || keepIf(compareValues(arg, current))) setAt(draft, parts, arg);
  };
}

/** The array at the path for an array operator, or mongod's BadValue when it is not one. */
function arrayAt(doc: Document, parts: string[]): unknown[] | undefined {
  const current = getAt(doc, parts);
  if (current === undefined) return undefined;
  if (!Array.isArray(current)) {
    throw new CommandError(
      'BadValue',
      `The field '${fieldName(parts)}' must be an array but is of type ${typeName(current)} in document {${idOf(doc)}}`,
    );
  }
  return current;
}

function sortElements(items: unknown[], spec: unknown): void {
  if (isPlainObject(spec)) {
    const fields = Object.entries(spec);
    items.sort((a, b) => {
      for (const [f, dir] of fields) {
        const c = compareValues(getAt(a, f.split('.')) ?? null, getAt(b, f.split('.')) ?? null);
        if (c !== 0) return toDouble(dir) < 0 ? -c : c;
      }
      return 0;
    });
  } else {
    const dir = toDouble(spec);
    items.sort((a, b) => (dir < 0 ? -compareValues(a, b) : compareValues(a, b)));
  }
}

const push: Apply = (draft, parts, arg) => {
  const arr = [...(arrayAt(draft.root, parts) ?? [])];
  const modifiers = isPlainObject(arg) && '$each' in arg ? arg : { $each: [arg] };
  if (!Array.isArray(modifiers.$each)) {
    throw new CommandError(
      'BadValue',
      `The argument to $each in $push must be an array but it was of type: ${typeName(modifiers.$each)}`,
    );
  }
  let position = modifiers.$position === undefined ? arr.length : toDouble(modifiers.$position);
  if (position < 0) position = Math.max(0, arr.length + position);
  arr.splice(Math.min(position, arr.length), 0, ...modifiers.$each);
  if (modifiers.$sort !== undefined) sortElements(arr, modifiers.$sort);
  let result = arr;
  if (modifiers.$slice !== undefined) {
    const n = toDouble(modifiers.$slice);
    result = n >= 0 ? arr.slice(0, n) : arr.slice(Math.max(0, arr.length + n));
  }
  setAt(draft, parts, result);
};

const addToSet: Apply = (draft, parts, arg) => {
  const arr = [...(arrayAt(draft.root, parts) ?? [])];
  const items = isPlainObject(arg) && '$each' in arg ? arg.$each : [arg];
  if (!Array.isArray(items)) {
    throw new CommandError(
      'TypeMismatch',
      `The argument to $each in $addToSet must be an array but it was of type ${typeName(items)}`,
    );
  }
  for (const item of items) if (!arr.some((el) => valuesEqual(el, item))) arr.push(item);
  setAt(draft, parts, arr);
};

function pullMatcher(cond: unknown, ctx: OperatorContext): (el: unknown) => boolean {
  if (isPlainObject(cond)) {
    const keys = Object.keys(cond);
    if (keys.length > 0 && keys[0]!.startsWith('$') && !['$and', '$or', '$nor'].includes(keys[0]!)) {
      const test = compileFilter({ v: cond }, ctx.match);
      return (el) => test({ v: el });
    }
    const test = compileFilter(cond, ctx.match);
    return (el) => isPlainObject(el) && test(el);
  }
  return (el) => valuesEqual(el, cond);
}

const pull: Apply = (draft, parts, arg, ctx) => {
  const arr = arrayAt(draft.root, parts);
  if (!arr) return;
  const matches = pullMatcher(arg, ctx);
  const kept = arr.filter((el) => !matches(el));
  if (kept.length !== arr.length) setAt(draft, parts, kept);
};

const pullAll: Apply = (draft, parts, arg) => {
  if (!Array.isArray(arg))
    throw new CommandError('BadValue', `$pullAll requires an array argument but was given a ${typeName(arg)}`);
  const arr = arrayAt(draft.root, parts);
  if (!arr) return;
  const kept = arr.filter((el) => !arg.some((x) => valuesEqual(el, x)));
  if (kept.length !== arr.length) setAt(draft, parts, kept);
};

const pop: Apply = (draft, parts, arg) => {
  const arr = arrayAt(draft.root, parts);
  if (!arr || arr.length === 0) return;
  setAt(draft, parts, toDouble(arg) < 0 ? arr.slice(1) : arr.slice(0, -1));
};

const bit: Apply = (draft, parts, arg) => {
  if (!isPlainObject(arg))
    throw new CommandError('BadValue', `The $bit modifier is not compatible with a ${typeName(arg)}`);
  const current = getAt(draft.root, parts) ?? 0;
  if (numericKind(current) !== 'int' && numericKind(current) !== 'long') {
    throw new CommandError(
      'BadValue',
      `Cannot apply $bit to a value of non-integral type.{${idOf(draft.root)}} has the field ${fieldName(parts)} of non-integer type ${typeName(current)}`,
    );
  }
  let value = BigInt(current as number | bigint);
  let long = typeof current === 'bigint';
  for (const [op, operand] of Object.entries(arg)) {
    if (numericKind(operand) !== 'int' && numericKind(operand) !== 'long') {
      throw new CommandError(
        'BadValue',
        `The $bit modifier field must be an Integer(32/64 bit); a '${typeName(operand)}' is not supported here`,
      );
    }
    long ||= typeof operand === 'bigint';
    const o = BigInt(operand as number | bigint);
    if (op === 'and') value &= o;
    else if (op === 'or') value |= o;
    else if (op === 'xor') value ^= o;
    else
      throw new CommandError(
        'BadValue',
        `The $bit modifier only supports 'and', 'or', and 'xor', not '${op}' which is an unknown operator: {${op}: ${formatValue(operand)}}`,
      );
  }
  setAt(draft, parts, long ? BigInt.asIntN(64, value) : Number(BigInt.asIntN(32, value)));
};

const currentDate: Apply = (draft, parts, arg, ctx) => {
  const type = isPlainObject(arg) ? arg.$type : 'date';
  if (type === 'timestamp') setAt(draft, parts, ctx.clusterTime);
  else if (type === 'date' || arg === true) setAt(draft, parts, new Date(ctx.now.getTime()));
  else if (isPlainObject(arg))
    throw new CommandError(
      'BadValue',
      "The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}",
    );
  else setAt(draft, parts, new Date(ctx.now.getTime()));
};

export const OPERATORS: Record<string, Apply> = {
  $set: (draft, parts, arg) => setAt(draft, parts, arg),
  $setOnInsert: (draft, parts, arg, ctx) => {
    if (ctx.isUpsertInsert) setAt(draft, parts, arg);
  },
  $unset: (draft, parts) => void unsetAt(draft, parts),
  $inc: arithmetic('$inc', addNumbers),
  $mul: arithmetic('$mul', multiplyNumbers),
  $min: extremum((c) => c < 0),
  $max: extremum((c) => c > 0),
  $currentDate: currentDate,
  $push: push,
  $addToSet: addToSet,
  $pull: pull,
  $pullAll: pullAll,
  $pop: pop,
  $bit: bit,
};

/** Operators whose argument must be numeric, checked before anything is applied. */
export function checkArgument(op: string, path: string, arg: unknown): void {
  if ((op === '$inc' || op === '$mul') && !isNumeric(arg)) {
    const verb = op === '$inc' ? 'increment' : 'multiply';
    throw new CommandError('TypeMismatch', `Cannot ${verb} with non-numeric argument: {${path}: ${formatValue(arg)}}`);
  }
  if (op === '$pop' && !(isNumeric(arg) && (toDouble(arg) === 1 || toDouble(arg) === -1))) {
    throw new CommandError('FailedToParse', `Expected a number in: ${path}: ${formatValue(arg)}`);
  }
}
