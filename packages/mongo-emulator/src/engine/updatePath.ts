// Resolving update paths (with `$`, `$[]` and `$[<id>]`) to concrete paths in one document,
// and the primitive reads and writes at those paths. Writes go to a Draft: copy-on-write over a
// stored version that must never be mutated (storedDocument.ts).
import { CommandError } from '../errors.ts';
import { formatValue } from './format.ts';
import type { Predicate } from './match.ts';
import type { Document } from './types.ts';

export const isPlainObject = (v: unknown): v is Document =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/**
 * A document being updated. It starts as a shallow copy of the stored version; a write copies
 * each container on its path the first time it passes through it, so every subtree the update
 * does not touch stays shared with (and is never written through to) the stored version.
 */
export class Draft {
  readonly root: Document;
  /** Containers this draft made or copied, so writes into them need no further copy. */
  readonly #owned = new Set<object>();

  constructor(base: Document) {
    this.root = { ...base };
    this.#owned.add(this.root);
  }

  /** `child`, held by the owned `parent` at `key`, as a container this draft may write into. */
  own(parent: Document | unknown[], key: string, child: Document | unknown[]): Document | unknown[] {
    if (this.#owned.has(child)) return child;
    const copy = Array.isArray(child) ? [...child] : { ...child };
    setChild(parent, key, copy);
    this.#owned.add(copy);
    return copy;
  }

  /** Records a container the draft created itself. */
  adopt(fresh: object): void {
    this.#owned.add(fresh);
  }
}

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
        throw new CommandError(
          'BadValue',
          `The path '${p.join('.')}' must exist in the document in order to apply array updates.`,
        );
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

/**
 * The container holding the last part, created on the way when `create` is set. With a draft,
 * every container on the way is made the draft's own (copied from the stored version if need be).
 */
function parentOf(root: Document, parts: string[], create: boolean, draft?: Draft): Document | unknown[] | undefined {
  let cur: unknown = root;
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
      draft?.adopt(next as Document);
    } else if (draft && (Array.isArray(next) || isPlainObject(next))) {
      next = draft.own(cur as Document | unknown[], part, next);
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
  throw new CommandError(
    'PathNotViable',
    `Cannot create field '${field}' in element {${parentName}: ${formatValue(container)}}`,
  );
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
export function setAt(draft: Draft, parts: string[], value: unknown): void {
  const parent = parentOf(draft.root, parts, true, draft)!;
  setChild(parent, parts[parts.length - 1]!, value);
}

/** Removes the field; an array element becomes null, as $unset does. Returns whether it existed. */
export function unsetAt(draft: Draft, parts: string[]): boolean {
  const last = parts[parts.length - 1]!;
  // Looked up without copying first: removing a missing field must leave the version shared.
  const found = parentOf(draft.root, parts, false);
  if (Array.isArray(found)) {
    if (!/^\d+$/.test(last) || Number(last) >= found.length) return false;
  } else if (!found || !(last in found)) {
    return false;
  }
  const parent = parentOf(draft.root, parts, false, draft)!;
  if (Array.isArray(parent)) parent[Number(last)] = null;
  else delete parent[last];
  return true;
}
