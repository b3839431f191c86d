// Aggregation expressions, evaluated by mingo with the operators whose semantics differ from
// MongoDB's on BSON values replaced: mingo compares bigints as strings, ignores them in sums and
// does not know ObjectId/Decimal128 ordering or arithmetic. Comparisons and arithmetic here go
// through compare.ts, numeric.ts and decimal128.ts instead.
import { Context, evalExpr } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import * as queryOperators from 'mingo/operators/query';
import type { Options } from 'mingo/types';
import { CommandError } from '../errors.ts';
import { compareValues } from './compare.ts';
import { Decimal128 } from 'bson';
import * as decimal from './decimal128.ts';
import { addNumbers, isNumeric, multiplyNumbers, subtractNumbers, toDouble, typeName } from './numeric.ts';
import type { Document } from './types.ts';

type Evaluated = unknown[];

function args(obj: unknown, expr: unknown, options: Options, name: string, count?: number): Evaluated {
  const values = evalExpr(obj, expr, options);
  if (!Array.isArray(values) || (count !== undefined && values.length !== count)) {
    throw new CommandError('Location16020', `Expression ${name} takes exactly ${count} arguments.`);
  }
  return values;
}

function comparison(name: string, test: (c: number) => boolean) {
  return (obj: unknown, expr: unknown, options: Options) => {
    const [a, b] = args(obj, expr, options, name, 2);
    return test(compareValues(a, b));
  };
}

/** Sum of numbers with mongod's widening; an int64 overflow degrades to a double, as $add does. */
export function sumValues(values: unknown[]): unknown {
  let total: unknown = 0;
  for (const v of values) {
    if (!isNumeric(v)) continue;
    total = addNumbers(total, v) ?? toDouble(total) + toDouble(v);
  }
  return total;
}

const isNullish = (v: unknown): boolean => v === null || v === undefined;

function $add(obj: unknown, expr: unknown, options: Options): unknown {
  const values = args(obj, expr, options, '$add');
  let total: unknown = 0;
  let date: Date | undefined;
  for (const v of values) {
    if (isNullish(v)) return null;
    if (v instanceof Date) {
      if (date) throw new CommandError('Location16612', 'only one date allowed in an $add expression');
      date = v;
    } else if (isNumeric(v)) {
      total = addNumbers(total, v) ?? toDouble(total) + toDouble(v);
    } else {
      throw new CommandError('TypeMismatch', `$add only supports numeric or date types, not ${typeof v}`);
    }
  }
  return date ? new Date(date.getTime() + toDouble(total)) : total;
}

function $subtract(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = args(obj, expr, options, '$subtract', 2);
  if (isNullish(a) || isNullish(b)) return null;
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (a instanceof Date) return new Date(a.getTime() - toDouble(b));
  return subtractNumbers(a, b) ?? toDouble(a) - toDouble(b);
}

function $multiply(obj: unknown, expr: unknown, options: Options): unknown {
  const values = args(obj, expr, options, '$multiply');
  let product: unknown = 1;
  for (const v of values) {
    if (isNullish(v)) return null;
    product = multiplyNumbers(product, v) ?? toDouble(product) * toDouble(v);
  }
  return product;
}

/** mongod's ExpressionDivide: a decimal if either side is one, otherwise a double. */
function $divide(obj: unknown, expr: unknown, options: Options): unknown {
  const [a, b] = args(obj, expr, options, '$divide', 2);
  if (isNumeric(a) && isNumeric(b)) {
    if (a instanceof Decimal128 || b instanceof Decimal128) {
      const denominator = decimal.toDecimal(b);
      if (denominator.kind === 'finite' && denominator.coefficient === 0n)
        throw new CommandError('BadValue', "can't $divide by zero");
      return decimal.toDecimal128(decimal.divide(decimal.toDecimal(a), denominator));
    }
    if (toDouble(b) === 0) throw new CommandError('BadValue', "can't $divide by zero");
    return toDouble(a) / toDouble(b);
  }
  if (isNullish(a) || isNullish(b)) return null;
  throw new CommandError('TypeMismatch', `$divide only supports numeric types, not ${typeName(a)} and ${typeName(b)}`);
}

/** mongod's AccumulatorAvg: the exact decimal sum over the count when a decimal took part. */
function average(values: unknown[]): unknown {
  const nums = values.filter(isNumeric);
  if (nums.length === 0) return null;
  const total = sumValues(nums);
  if (total instanceof Decimal128)
    return decimal.toDecimal128(decimal.divide(decimal.fromDecimal128(total), decimal.fromInteger(nums.length)));
  return toDouble(total) / nums.length;
}

function extreme(sign: 1 | -1) {
  return (values: unknown[]): unknown => {
    let best: unknown = null;
    for (const v of values) {
      if (isNullish(v)) continue;
      if (best === null || sign * compareValues(v, best) > 0) best = v;
    }
    return best;
  };
}
const maxOf = extreme(1);
const minOf = extreme(-1);

/**
 * Values an accumulator sees. In $group: the expression evaluated against every document of the
 * group. Used as an expression ({$sum: '$arr'}), mingo passes the evaluated list and a null expr.
 */
function collect(coll: unknown[], expr: unknown, options: Options): unknown[] {
  return accumulatorOperators.$push(coll, expr, options) as unknown[];
}

const overrides = Context.init({
  expression: {
    $eq: comparison('$eq', (c) => c === 0),
    $ne: comparison('$ne', (c) => c !== 0),
    $gt: comparison('$gt', (c) => c > 0),
    $gte: comparison('$gte', (c) => c >= 0),
    $lt: comparison('$lt', (c) => c < 0),
    $lte: comparison('$lte', (c) => c <= 0),
    $cmp: (obj: unknown, expr: unknown, options: Options) => {
      const [a, b] = args(obj, expr, options, '$cmp', 2);
      return Math.sign(compareValues(a, b));
    },
    $add,
    $subtract,
    $multiply,
    $divide,
  },
  accumulator: {
    $sum: (coll: unknown[], expr: unknown, options: Options) => sumValues(collect(coll, expr, options)),
    $avg: (coll: unknown[], expr: unknown, options: Options) => average(collect(coll, expr, options)),
    $max: (coll: unknown[], expr: unknown, options: Options) => maxOf(collect(coll, expr, options)),
    $min: (coll: unknown[], expr: unknown, options: Options) => minOf(collect(coll, expr, options)),
  },
});

/** mingo's operators with MongoDB-exact ones laid over them (in Context.from, first wins). */
export const engineContext = Context.from(
  overrides,
  Context.init({
    accumulator: accumulatorOperators,
    expression: expressionOperators,
    pipeline: pipelineOperators,
    projection: projectionOperators,
    query: queryOperators,
  }),
);

export interface ExpressionVariables {
  now: Date;
  clusterTime: unknown;
  variables?: Document;
}

/** Replaces `$$NOW` and `$$CLUSTER_TIME` by literals: mingo's clock cannot be injected. */
export function bindSystemVariables<T>(expr: T, vars: ExpressionVariables): T {
  if (expr === '$$NOW') return { $literal: vars.now } as T;
  if (expr === '$$CLUSTER_TIME') return { $literal: vars.clusterTime } as T;
  if (Array.isArray(expr)) return expr.map((e) => bindSystemVariables(e, vars)) as T;
  if (expr !== null && typeof expr === 'object' && Object.getPrototypeOf(expr) === Object.prototype) {
    if ('$literal' in expr) return expr;
    const out: Document = {};
    for (const [k, v] of Object.entries(expr)) out[k] = bindSystemVariables(v, vars);
    return out as T;
  }
  return expr;
}

/** Evaluates one aggregation expression against a document (`$expr`, projections). */
export function evaluate(doc: Document, expr: unknown, vars: ExpressionVariables): unknown {
  return compileExpression(expr, vars)(doc);
}

const CAPTURE = '$__engineCaptureOptions';
const captureContext = Context.from(
  Context.init({ expression: { [CAPTURE]: (_o: unknown, _e: unknown, options: Options) => options } }),
  engineContext,
);

type ComputeOptions = Options & { update(locals: { root: null }): ComputeOptions };

/**
 * mingo's ComputeOptions class, which the package does not export: taken once from the options
 * an operator receives. Options built from it directly are used as they are, whereas plain
 * options make mingo copy every operator table of the context (about 30 µs) on each use: per
 * aggregate, per update pipeline, per change-stream event.
 */
const ComputeOptionsClass = (evalExpr({}, { [CAPTURE]: 1 }, { context: captureContext } as Options) as object)
  .constructor as new (
  options: Document,
) => ComputeOptions;

/** Compute options over `context`, built without copying it (see ComputeOptionsClass). */
export function computeOptions(
  context: Context,
  extra: { variables?: Document; collectionResolver?: (name: string) => Document[] } = {},
): ComputeOptions {
  // mingo's own defaults (ComputeOptions.init), which a directly built instance does not get.
  return new ComputeOptionsClass({
    idKey: '_id',
    scriptEnabled: true,
    useStrictMode: true,
    failOnError: true,
    processingMode: 0,
    context,
    ...extra,
  });
}

/**
 * Prepares an expression for evaluation against many documents: system variables are bound
 * once, and mingo's compute options are built once.
 */
export function compileExpression(expr: unknown, vars: ExpressionVariables): (doc: Document) => unknown {
  const bound = bindSystemVariables(expr, vars);
  const options = computeOptions(engineContext, { variables: { ...vars.variables } });
  // A null root makes mingo bind each evaluated document as $$ROOT.
  options.update({ root: null });
  return (doc) => translateMingoErrors(() => evalExpr(doc, bound, options));
}

/** Aggregation truthiness: false, null, missing and zero are false. */
export function isTruthy(v: unknown): boolean {
  if (v === false || v === null || v === undefined) return false;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'bigint') return v !== 0n;
  return true;
}

/** mingo reports errors as MingoError messages; turn the ones mongod has codes for into them. */
export function translateMingoErrors<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof CommandError || !(err instanceof Error)) throw err;
    const unknownOp =
      /(?:accumulator|operator) '?(\$\w+)'? is not registered|unknown (?:query )?operator:? '?(\$\w+)/.exec(
        err.message,
      );
    if (unknownOp) {
      throw new CommandError('InvalidPipelineOperator', `Unrecognized expression '${unknownOp[1] ?? unknownOp[2]}'`);
    }
    const undefinedVar = /Use of undefined variable: (\w+)/.exec(err.message);
    if (undefinedVar) throw new CommandError('Location17276', `Use of undefined variable: ${undefinedVar[1]}`);
    throw new CommandError('BadValue', err.message);
  }
}
