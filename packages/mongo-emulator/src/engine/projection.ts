// find() projections as mongod 4.4+ applies them: inclusion or exclusion (never both, except
// `_id`), dotted paths through arrays, computed fields, `$slice`, `$elemMatch` and positional `$`.
import { CommandError } from '../errors.ts';
import { evaluate, isTruthy } from './expression.ts';
import { compileFilter } from './match.ts';
import { isNumeric, toDouble } from './numeric.ts';
import { firstMatchingIndex } from './update.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

export interface ProjectionContext {
  /** The query, for the positional `$`. */
  filter: Document;
  now: Date;
}

type Rule =
  | { kind: 'include' }
  | { kind: 'exclude' }
  | { kind: 'compute'; expr: unknown }
  | { kind: 'slice'; arg: unknown }
  | { kind: 'elemMatch'; cond: Document }
  | { kind: 'positional' };

function ruleOf(value: unknown): Rule {
  if (isPlainObject(value)) {
    const op = Object.keys(value)[0];
    if (op === '$slice') return { kind: 'slice', arg: value.$slice };
    if (op === '$elemMatch') return { kind: 'elemMatch', cond: value.$elemMatch as Document };
    return { kind: 'compute', expr: value };
  }
  if (typeof value === 'boolean' || isNumeric(value))
    return isTruthy(value) ? { kind: 'include' } : { kind: 'exclude' };
  return { kind: 'compute', expr: value };
}

/** The projected document; it never writes into `doc`, but may share subtrees with it. */
export function project(doc: Document, projection: Document | undefined, ctx: ProjectionContext): Document {
  if (!projection || Object.keys(projection).length === 0) return doc;
  const rules = Object.entries(projection).map(([path, v]) => {
    if (path.endsWith('.$')) return { path: path.slice(0, -2), rule: { kind: 'positional' } as Rule };
    return { path, rule: ruleOf(v) };
  });
  // The first field that includes or excludes decides the mode ($slice alone keeps every field,
  // $elemMatch counts as an inclusion); a later field of the other kind is an error.
  const deciding = rules.find(({ path, rule }) => path !== '_id' && rule.kind !== 'slice');
  const inclusion = deciding !== undefined && deciding.rule.kind !== 'exclude';
  for (const { path, rule } of rules) {
    if (path === '_id' || rule.kind === 'slice' || rule.kind === 'elemMatch') continue;
    if (inclusion && rule.kind === 'exclude')
      throw new CommandError('Location31254', `Cannot do exclusion on field ${path} in inclusion projection`);
    if (!inclusion && rule.kind !== 'exclude')
      throw new CommandError('Location31253', `Cannot do inclusion on field ${path} in exclusion projection`);
  }
  const idRule = rules.find((r) => r.path === '_id')?.rule;
  let out: Document;
  if (inclusion) {
    out = {};
    if (idRule?.kind !== 'exclude' && '_id' in doc) out._id = doc._id;
    for (const { path, rule } of rules) {
      if (path === '_id' && rule.kind === 'include') continue;
      if (rule.kind === 'include' || rule.kind === 'positional') copyPath(doc, out, path.split('.'));
    }
  } else {
    out = { ...doc };
    for (const { path, rule } of rules) if (rule.kind === 'exclude') removePath(out, path.split('.'));
  }
  for (const { path, rule } of rules) applySpecial(doc, out, path, rule, ctx);
  return out;
}

function copyPath(src: unknown, dst: Document, parts: string[]): void {
  if (!isPlainObject(src)) return;
  const [head, ...rest] = parts;
  const value = src[head!];
  if (value === undefined) return;
  if (rest.length === 0) {
    dst[head!] = value;
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(dst[head!]) ? (dst[head!] as unknown[]) : undefined;
    const arr: unknown[] = [];
    for (const el of value) {
      if (!isPlainObject(el)) continue;
      const target = { ...(existing?.[arr.length] as Document | undefined) };
      copyPath(el, target, rest);
      arr.push(target);
    }
    dst[head!] = arr;
    return;
  }
  if (!isPlainObject(value)) return;
  // Copied: an earlier rule may have put the stored document's own subtree here.
  const target = isPlainObject(dst[head!]) ? { ...(dst[head!] as Document) } : {};
  copyPath(value, target, rest);
  dst[head!] = target;
}

function removePath(doc: unknown, parts: string[]): void {
  if (Array.isArray(doc)) {
    for (const el of doc) removePath(el, parts);
    return;
  }
  if (!isPlainObject(doc)) return;
  const [head, ...rest] = parts;
  if (rest.length === 0) {
    delete doc[head!];
    return;
  }
  const next = doc[head!];
  if (Array.isArray(next)) doc[head!] = next.map((el) => (isPlainObject(el) ? { ...el } : el));
  else if (isPlainObject(next)) doc[head!] = { ...next };
  removePath(doc[head!], rest);
}

function setTop(out: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = out;
  for (const p of parts.slice(0, -1)) {
    // `out` may share subtrees with the stored document: copy before writing into one.
    cur[p] = isPlainObject(cur[p]) ? { ...cur[p] } : {};
    cur = cur[p] as Document;
  }
  if (value === undefined) delete cur[parts[parts.length - 1]!];
  else cur[parts[parts.length - 1]!] = value;
}

function applySpecial(doc: Document, out: Document, path: string, rule: Rule, ctx: ProjectionContext): void {
  switch (rule.kind) {
    case 'compute':
      setTop(out, path, evaluate(doc, rule.expr, { now: ctx.now, clusterTime: undefined }));
      return;
    case 'slice': {
      const value = doc[path];
      if (!Array.isArray(value)) return;
      const [skip, limit] = Array.isArray(rule.arg) ? rule.arg.map(toDouble) : [undefined, toDouble(rule.arg)];
      let sliced: unknown[];
      if (skip === undefined) sliced = limit! >= 0 ? value.slice(0, limit) : value.slice(limit);
      else {
        const start = skip < 0 ? Math.max(0, value.length + skip) : skip;
        sliced = value.slice(start, start + limit!);
      }
      setTop(out, path, sliced);
      return;
    }
    case 'elemMatch': {
      const value = doc[path];
      const test = compileFilter({ v: { $elemMatch: rule.cond } }, { now: ctx.now });
      const first = Array.isArray(value) ? value.find((el) => test({ v: [el] })) : undefined;
      setTop(out, path, first === undefined ? undefined : [first]);
      return;
    }
    case 'positional': {
      const idx = firstMatchingIndex(doc, path, ctx.filter, { now: ctx.now });
      if (idx === undefined) {
        throw new CommandError(
          'BadValue',
          "Executor error during find command :: caused by :: positional operator '.$' couldn't find a matching element in the array",
        );
      }
      const arr = path.split('.').reduce<unknown>((v, p) => (isPlainObject(v) ? v[p] : undefined), doc) as unknown[];
      setTop(out, path, [arr[idx]]);
      return;
    }
    default:
      return;
  }
}
