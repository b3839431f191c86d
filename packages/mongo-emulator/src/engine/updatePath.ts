// Resolving update paths (with `$`, `$[]` and `$[<id>]`) to concrete paths in one document,
// and the primitive reads and writes at those paths.
import { CommandError } from '../errors.ts';
import { formatValue } from './format.ts';
import type { Predicate } from './match.ts';
import type { Document } from './types.ts';

export const isPlainObject = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** How the positional parts of an update path are resolved for one document. */
export interface PositionalContext {
  /** Index of the first array element the query matched, for `$`; undefined when none. */
  positional(arrayPath: string[]): number | undefined;
  /** Element tests for `$[<id>]`, built from arrayFilters. */
  arrayFilters: Map<string, Predicate>;
}

/** Expands one update path into the concrete paths it denotes in `doc`. */
export function expandPath(doc: Document, path: string, pos: PositionalContext): string[][] {
  let paths: string[][] = [[]];
  for (const part of path.split('.')) {
    if (part !== '$' && !part.startsWith('$[')) {
      for (const p of paths) p.push(part);
      continue;
    }
    const next: string[][] = [];
    for (const p of paths) {
      const arr = getAt(doc, p);
      if (part === '$') {
        const idx = pos.positional(p);
        if (idx === undefined) {
          throw new CommandError('BadValue', 'The positional operator did not find the match needed from the query.');
        }
        next.push([...p, String(idx)]);
        continue;
      }
      if (!Array.isArray(arr)) {
        if (arr === undefined) continue;
        throw new CommandError('BadValue', `The path '${p.join('.')}' must exist in the document in order to apply array updates.`);
      }
      const id = part.slice(2, -1);
      const test = id === '' ? undefined : pos.arrayFilters.get(id);
      if (id !== '' && !test) {
        throw new CommandError('BadValue', `No array filter found for identifier '${id}' in path '${path}'`);
      }
      arr.forEach((el, i) => {
        if (!test || test({ [id]: el })) next.push([...p, String(i)]);
      });
    }
    paths = next;
  }
  return paths;
}

export function getAt(doc: unknown, parts: string[]): unknown {
  let cur = doc;
  for (const part of parts) {
    if (Array.isArray(cur)) cur = /^\d+$/.test(part) ? cur[Number(part)] : undefined;
    else if (isPlainObject(cur)) cur = cur[part];
    else return undefined;
  }
  return cur;
}

/** The container holding the last part, created on the way when `create` is set. */
function parentOf(doc: Document, parts: string[], create: boolean): Document | unknown[] | undefined {
  let cur: unknown = doc;
  for (let i = 0; i < parts.length - 1; i++) {
    const part = parts[i]!;
    let next: unknown;
    if (Array.isArray(cur)) {
      if (!/^\d+$/.test(part)) return pathNotViable(parts, i, cur, create);
      next = cur[Number(part)];
    } else if (isPlainObject(cur)) {
      next = cur[part];
    } else {
      return pathNotViable(parts, i, cur, create);
    }
    if (next === undefined || next === null) {
      if (!create) return undefined;
      if (next === null) return pathNotViable(parts, i + 1, null, create);
      next = {};
      setChild(cur as Document | unknown[], part, next);
    }
    cur = next;
  }
  if (Array.isArray(cur) || isPlainObject(cur)) return cur;
  return pathNotViable(parts, parts.length - 1, cur, create);
}

function pathNotViable(parts: string[], i: number, container: unknown, create: boolean): undefined {
  if (!create) return undefined;
  const field = parts[i]!;
  const parentName = parts[i - 1] ?? '';
  throw new CommandError('PathNotViable', `Cannot create field '${field}' in element {${parentName}: ${formatValue(container)}}`);
}

function setChild(container: Document | unknown[], key: string, value: unknown): void {
  if (Array.isArray(container)) {
    const idx = Number(key);
    while (container.length < idx) container.push(null);
    container[idx] = value;
  } else {
    container[key] = value;
  }
}

/** Writes `value` at the path, creating intermediate documents (and padding arrays with null). */
export function setAt(doc: Document, parts: string[], value: unknown): void {
  const parent = parentOf(doc, parts, true)!;
  setChild(parent, parts[parts.length - 1]!, value);
}

/** Removes the field; an array element becomes null, as $unset does. Returns whether it existed. */
export function unsetAt(doc: Document, parts: string[]): boolean {
  const parent = parentOf(doc, parts, false);
  const last = parts[parts.length - 1]!;
  if (Array.isArray(parent)) {
    if (!/^\d+$/.test(last) || Number(last) >= parent.length) return false;
    parent[Number(last)] = null;
    return true;
  }
  if (!parent || !(last in parent)) return false;
  delete parent[last];
  return true;
}
