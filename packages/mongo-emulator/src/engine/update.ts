// Applying one update (operator document, replacement document or pipeline) to one document.
// Pure: returns the new document and never touches its input, with which the result shares every
// subtree the update did not change (copy-on-write through a Draft).
import type { Timestamp } from 'bson';
import { CommandError } from '../errors.ts';
import { aggregateDocuments } from './aggregate.ts';
import { cloneValue } from './clone.ts';
import { valuesEqual } from './compare.ts';
import { formatValue } from './format.ts';
import { toDouble } from './numeric.ts';
import { sameValue, type UpdateLog } from './deltaDiff.ts';
import { compileFilter, type MatchContext, type Predicate } from './match.ts';
import { checkArgument, OPERATORS, type OperatorContext } from './updateOperators.ts';
import { Draft, expandPath, getAt, isPlainObject, setAt, unsetAt, type PositionalContext } from './updatePath.ts';
import type { Document } from './types.ts';

export interface UpdateContext {
  now: Date;
  clusterTime: Timestamp;
  arrayFilters?: Document[];
  variables?: Document;
  /** The query that selected the document, for the positional `$`. */
  query?: Document;
  /** True when this update builds the document of an upsert ($setOnInsert applies). */
  isUpsertInsert?: boolean;
  /** When set, an operator update records here the paths it logs in its `$v: 2` oplog delta. */
  log?: UpdateLog;
}

const PIPELINE_UPDATE_STAGES = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);

export function isOperatorUpdate(u: Document | Document[]): boolean {
  if (Array.isArray(u)) return false;
  const first = Object.keys(u)[0];
  return first?.startsWith('$') === true;
}

/** Checks an update document once per statement, before any document is touched. */
export function validateUpdate(u: Document | Document[]): void {
  if (Array.isArray(u)) {
    for (const stage of u) {
      const name = Object.keys(stage)[0] ?? '';
      if (!PIPELINE_UPDATE_STAGES.has(name)) {
        throw new CommandError('InvalidOptions', `${name} is not allowed to be used within an update`);
      }
    }
    return;
  }
  if (!isOperatorUpdate(u)) {
    for (const key of Object.keys(u)) {
      if (key.startsWith('$'))
        throw new CommandError(
          'DollarPrefixedFieldName',
          `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`,
        );
    }
    return;
  }
  const seen: string[] = [];
  for (const [op, args] of Object.entries(u)) {
    if (!op.startsWith('$') || (!(op in OPERATORS) && op !== '$rename')) {
      throw new CommandError(
        'FailedToParse',
        `Unknown modifier: ${op}. Expected a valid update modifier or pipeline-style update specified as an array`,
      );
    }
    if (!isPlainObject(args)) {
      throw new CommandError(
        'FailedToParse',
        `Modifiers operate on fields but we found type ${typeof args} instead. For example: {$mod: {<field>: ...}} not {${op}: ${formatValue(args)}}`,
      );
    }
    if (Object.keys(args).length === 0) {
      throw new CommandError(
        'FailedToParse',
        `'${op}' is empty. You must specify a field like so: {${op}: {<field_name>: <value>}}`,
      );
    }
    for (const [path, arg] of Object.entries(args)) {
      if (path === '' || path.split('.').some((p) => p === '')) {
        throw new CommandError(
          'EmptyFieldName',
          `The update path '${path}' contains an empty field name, which is not allowed.`,
        );
      }
      checkArgument(op, path, arg);
      const targets = op === '$rename' ? [path, String(arg)] : [path];
      for (const target of targets) {
        const clash = seen.find((s) => s === target || s.startsWith(`${target}.`) || target.startsWith(`${s}.`));
        if (clash !== undefined) {
          const shorter = clash.length <= target.length ? clash : target;
          throw new CommandError(
            'ConflictingUpdateOperators',
            `Updating the path '${target}' would create a conflict at '${shorter}'`,
          );
        }
        seen.push(target);
      }
    }
  }
}

/** Returns the updated version of `doc`, sharing its untouched subtrees; `doc` itself is never touched. */
export function applyUpdate(doc: Document, u: Document | Document[], ctx: UpdateContext): Document {
  if (Array.isArray(u)) return applyPipeline(doc, u, ctx);
  if (Object.keys(u).length === 0 && !ctx.isUpsertInsert) {
    // An empty document is a replacement by {}, keeping _id (as mongod does).
    return keepId(doc, {});
  }
  if (!isOperatorUpdate(u)) return keepId(doc, cloneValue(u));
  const draft = new Draft(doc);
  const matchCtx: MatchContext = { now: ctx.now, clusterTime: ctx.clusterTime, variables: ctx.variables };
  const opCtx: OperatorContext = {
    now: ctx.now,
    clusterTime: ctx.clusterTime,
    isUpsertInsert: ctx.isUpsertInsert ?? false,
    match: matchCtx,
  };
  const pos = positionalContext(doc, ctx, matchCtx);
  for (const [op, args] of Object.entries(u)) {
    for (const [path, arg] of Object.entries(args as Document)) {
      if (op === '$rename') {
        rename(draft, path, String(arg), ctx.log);
        continue;
      }
      for (const parts of expandPath(draft.root, path, pos)) {
        if (parts[0] === '_id' && op !== '$setOnInsert' && op !== '$set') immutableId();
        if (!ctx.log) {
          OPERATORS[op]!(draft, parts, cloneValue(arg), opCtx);
          continue;
        }
        const old = getAt(draft.root, parts);
        const missingFrom = old === undefined ? firstMissing(draft.root, parts) : -1;
        OPERATORS[op]!(draft, parts, cloneValue(arg), opCtx);
        logOperator(ctx.log, op, parts, old, getAt(draft.root, parts), arg, missingFrom);
      }
    }
  }
  if (!ctx.isUpsertInsert && '_id' in doc && !valuesEqual(doc._id, draft.root._id)) immutableId();
  return draft.root;
}

function immutableId(): never {
  throw new CommandError(
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );
}

/** A replacement keeps the stored _id first; a different _id is refused. */
function keepId(doc: Document, replacement: Document): Document {
  if ('_id' in replacement && '_id' in doc && !valuesEqual(replacement._id, doc._id)) {
    throw new CommandError(
      'ImmutableField',
      `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(replacement._id)}`,
    );
  }
  const { _id: _ignored, ...rest } = replacement;
  return '_id' in doc ? { _id: doc._id, ...rest } : replacement;
}

/**
 * What one operator at one path logs in the `$v: 2` delta (mongod 7.0, src/mongo/db/update/):
 * - a field it creates is logged whole from the first path component that did not exist
 *   (path_creating_node.cpp: logCreatedField at idxOfFirstCreated), in `i`;
 * - a field it removes is a delete (unset_node.cpp), in `d`; an array element it unsets becomes
 *   null and is an update;
 * - $set, $inc, $mul, $min, $max, $bit, $currentDate log the field they changed and only it
 *   (modifier_node.cpp logUpdate), nothing when the value is unchanged (their kNoOp);
 * - $push logs one element per appended value when it only appended to a non-empty array, and
 *   the whole array when the array was empty, or $position inserted before the end, or $sort ran,
 *   or $slice removed an element (push_node.cpp insertElementsWithPosition / performPush /
 *   logUpdate, kArrayAppendUpdate vs kNormalUpdate);
 * - $pull, $pullAll (array_culling_node.cpp), $pop (pop_node.cpp) and an $addToSet that adds
 *   (addtoset_node.cpp) log the whole array.
 */
function logOperator(
  log: UpdateLog,
  op: string,
  parts: string[],
  old: unknown,
  value: unknown,
  arg: unknown,
  missingFrom: number,
): void {
  if (value === undefined) {
    if (old !== undefined) log.push({ kind: 'd', parts });
    return;
  }
  if (old === undefined) {
    log.push({ kind: 'i', parts: missingFrom < 0 ? parts : parts.slice(0, missingFrom + 1) });
    return;
  }
  if (unchanged(old, value)) return;
  if (op === '$push' && Array.isArray(old) && Array.isArray(value) && onlyAppended(old, value, arg)) {
    for (let index = old.length; index < value.length; index++)
      log.push({ kind: 'i', parts: [...parts, String(index)] });
    return;
  }
  log.push({ kind: 'u', parts });
}

function unchanged(old: unknown, value: unknown): boolean {
  if (Array.isArray(old) && Array.isArray(value))
    return old.length === value.length && old.every((el, i) => sameValue(el, value[i]));
  return sameValue(old, value);
}

/** push_node.cpp's kArrayAppendUpdate: appended to a non-empty array, nothing sorted or sliced off. */
function onlyAppended(old: unknown[], value: unknown[], arg: unknown): boolean {
  if (old.length === 0) return false;
  if (!isPlainObject(arg) || !('$each' in arg)) return value.length === old.length + 1;
  const each = arg.$each as unknown[];
  if (arg.$sort !== undefined) return false;
  if (arg.$position !== undefined && !(toDouble(arg.$position) > old.length)) return false;
  return value.length === old.length + each.length;
}

/** Index of the first component of `parts` missing in `doc` (the field an operator creates there). */
function firstMissing(doc: Document, parts: string[]): number {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length; i++) {
    cur = getAt(cur, [parts[i]!]);
    if (cur === undefined) return i;
  }
  return -1;
}

/** rename_node.cpp: the target is set (created or updated), then the source unset. */
function rename(draft: Draft, from: string, to: string, log?: UpdateLog): void {
  if (from === to)
    throw new CommandError('BadValue', `The source and target field for $rename must differ: ${from}: "${to}"`);
  if (from.startsWith(`${to}.`) || to.startsWith(`${from}.`)) {
    throw new CommandError(
      'BadValue',
      `The source and target field for $rename must not be on the same path: ${from}: "${to}"`,
    );
  }
  if (from.includes('$') || to.includes('$'))
    throw new CommandError('BadValue', `The source field for $rename may not be dynamic: ${from}`);
  const parts = from.split('.');
  const value = getAt(draft.root, parts);
  if (value === undefined) return;
  const toParts = to.split('.');
  const old = getAt(draft.root, toParts);
  const missingFrom = old === undefined ? firstMissing(draft.root, toParts) : -1;
  unsetAt(draft, parts);
  setAt(draft, toParts, value);
  if (log) {
    logOperator(log, '$set', toParts, old, value, value, missingFrom);
    log.push({ kind: 'd', parts });
  }
}

function applyPipeline(doc: Document, pipeline: Document[], ctx: UpdateContext): Document {
  validateUpdate(pipeline);
  // `[{ $replaceWith: { $literal: <document> } }]` is that document: no aggregation to run.
  const literal = literalReplacement(pipeline);
  const [result] = literal
    ? [cloneValue(literal)]
    : aggregateDocuments([cloneValue(doc)], pipeline, {
        now: ctx.now,
        clusterTime: ctx.clusterTime,
        variables: ctx.variables,
        resolve: () => [],
      });
  const out = result ?? {};
  if ('_id' in doc && !('_id' in out)) return { _id: doc._id, ...out };
  if ('_id' in doc && !valuesEqual(doc._id, out._id)) {
    throw new CommandError(
      'ImmutableField',
      `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(out._id)}`,
    );
  }
  return '_id' in out ? { _id: out._id, ...out } : out;
}

function literalReplacement(pipeline: Document[]): Document | undefined {
  if (pipeline.length !== 1) return undefined;
  const stage = pipeline[0]!;
  const keys = Object.keys(stage);
  if (keys.length !== 1 || keys[0] !== '$replaceWith') return undefined;
  const expr = stage.$replaceWith;
  if (!isPlainObject(expr) || Object.keys(expr).length !== 1 || !isPlainObject(expr.$literal)) return undefined;
  return expr.$literal;
}

/** `$` resolves to the first element the query matched in that array; `$[id]` uses arrayFilters. */
function positionalContext(doc: Document, ctx: UpdateContext, matchCtx: MatchContext): PositionalContext {
  const arrayFilters = new Map<string, Predicate>();
  for (const filter of ctx.arrayFilters ?? []) {
    const first = Object.keys(filter)[0];
    if (first === undefined)
      throw new CommandError(
        'FailedToParse',
        'Cannot use an expression without a top-level field name in arrayFilters',
      );
    const id = first.split('.')[0]!;
    if (arrayFilters.has(id))
      throw new CommandError('FailedToParse', `Found multiple array filters with the same top-level field name ${id}`);
    arrayFilters.set(id, compileFilter(filter, matchCtx));
  }
  // A method, not an arrow property: tsx names each arrow it creates (a defineProperty per update).
  return {
    arrayFilters,
    positional(arrayPath) {
      return firstMatchingIndex(doc, arrayPath.join('.'), ctx.query ?? {}, matchCtx);
    },
  };
}

/** The index of the first element of the array at `arrayPath` that the query's clauses on it match. */
export function firstMatchingIndex(
  doc: Document,
  arrayPath: string,
  query: Document,
  matchCtx: MatchContext,
): number | undefined {
  const arr = getAt(doc, arrayPath.split('.'));
  if (!Array.isArray(arr)) return undefined;
  const tests = Object.entries(query)
    .filter(([k]) => k === arrayPath || k.startsWith(`${arrayPath}.`))
    .map(([k, cond]) => {
      // A clause on the array itself tests each element wrapped as a one-element array.
      const rest = k.slice(arrayPath.length + 1);
      const test = compileFilter({ [rest === '' ? 'v' : `v.${rest}`]: cond }, matchCtx);
      return (el: unknown) => test({ v: rest === '' ? [el] : el });
    });
  if (tests.length === 0) return undefined;
  const idx = arr.findIndex((el) => tests.every((t) => t(el)));
  return idx < 0 ? undefined : idx;
}

/**
 * The document an upsert starts from: the query's equality fields (top level, `$and`, `$eq`,
 * dotted paths), then the update applied with $setOnInsert in force.
 */
export function upsertSeed(query: Document): Document {
  const seed = new Draft({});
  collectEqualities(query, seed);
  return seed.root;
}

function collectEqualities(query: Document, seed: Draft): void {
  for (const [key, cond] of Object.entries(query)) {
    if (key === '$and' && Array.isArray(cond)) {
      for (const sub of cond) collectEqualities(sub as Document, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    let value: unknown;
    if (isPlainObject(cond) && Object.keys(cond)[0]?.startsWith('$')) {
      if (!('$eq' in cond)) continue;
      value = cond.$eq;
    } else if (cond instanceof RegExp || (cond as { _bsontype?: string } | null)?._bsontype === 'BSONRegExp') {
      continue;
    } else {
      value = cond;
    }
    if (getAt(seed.root, key.split('.')) !== undefined) {
      throw new CommandError('NotSingleValueField', `cannot infer query fields to set, path '${key}' is matched twice`);
    }
    setAt(seed, key.split('.'), cloneValue(value));
  }
}
