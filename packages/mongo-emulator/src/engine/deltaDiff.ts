// The `$v: 2` delta an update is logged as in the oplog, and the change-stream updateDescription
// read back from it, as mongod 7.0 builds both. Format (src/mongo/db/update/
// document_diff_serialization.{h,cpp}): a document diff holds `d` {field: false}, `u` {field:
// value}, `i` {field: value}, then `s<field>` sub-diffs, each section in the order its fields were
// first logged; an array diff holds `a: true`, `l: <newSize>` when it shrank, then `u<index>` /
// `s<index>` in index order (an appended element is a `u<index>` too).
//
// Operator updates are not diffed: each operator logs the paths it wrote (update.ts records them,
// the rules per operator are there), and values are read from the new version (immutable, so
// reading later is reading then). Pipeline updates are diffed from the two versions as
// document_diff_calculator.cpp does, falling back to a whole-document replacement when the diff
// would not be smaller than the new document.
import { valuesEqual } from './compare.ts';
import { documentSize, transientSize } from './documentSize.ts';
import { isPlainObject } from './updatePath.ts';
import type { Document } from './types.ts';

/** What one operator logged at one path: updated, created (inserted) or deleted. */
export interface DeltaRecord {
  kind: 'u' | 'i' | 'd';
  parts: string[];
}

/** The records an operator update made, in the order it made them. */
export type UpdateLog = DeltaRecord[];

interface DocNode {
  array: false;
  deletes: string[];
  updates: Map<string, unknown>;
  inserts: Map<string, unknown>;
  subs: Map<string, DiffNode>;
}

interface ArrayNode {
  array: true;
  resize: number | undefined;
  items: Map<number, { value: unknown } | DiffNode>;
}

type DiffNode = DocNode | ArrayNode;

const docNode = (): DocNode => ({ array: false, deletes: [], updates: new Map(), inserts: new Map(), subs: new Map() });
const arrayNode = (): ArrayNode => ({ array: true, resize: undefined, items: new Map() });

/** The `diff` of `{$v: 2, diff}` for an operator update's records over its new version. */
export function deltaFromLog(after: Document, log: UpdateLog): Document {
  if (log.every((r) => r.parts.length === 1)) return topLevelDelta(after, log);
  const root = docNode();
  for (const record of log) addRecord(root, after, record);
  return serialize(root);
}

/** The common case, every path a top-level field: the sections straight away, no tree. */
function topLevelDelta(after: Document, log: UpdateLog): Document {
  let d: Document | undefined;
  let u: Document | undefined;
  let i: Document | undefined;
  for (const { kind, parts } of log) {
    const key = parts[0]!;
    if (kind === 'd') (d ??= {})[key] = false;
    else if (kind === 'u') (u ??= {})[key] = after[key];
    else (i ??= {})[key] = after[key];
  }
  const out: Document = {};
  if (d) out.d = d;
  if (u) out.u = u;
  if (i) out.i = i;
  return out;
}

function addRecord(root: DocNode, after: Document, record: DeltaRecord): void {
  let node: DiffNode = root;
  let container: unknown = after;
  const { parts } = record;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i]!;
    // A path under one already logged whole (a field created earlier by this update) is in it.
    if (leafAt(node, key)) return;
    const child: unknown = Array.isArray(container) ? container[Number(key)] : (container as Document)[key];
    node = subAt(node, key, Array.isArray(child));
    container = child;
  }
  const last = parts[parts.length - 1]!;
  if (leafAt(node, last)) return;
  if (node.array) {
    // Array elements are only ever updated or appended, both `u<index>` (a deleted element is null).
    node.items.set(Number(last), { value: (container as unknown[])[Number(last)] ?? null });
    return;
  }
  if (record.kind === 'd') node.deletes.push(last);
  else (record.kind === 'u' ? node.updates : node.inserts).set(last, (container as Document)[last]);
}

function leafAt(node: DiffNode, key: string): boolean {
  if (node.array) {
    const item = node.items.get(Number(key));
    return item !== undefined && 'value' in item;
  }
  return node.updates.has(key) || node.inserts.has(key) || node.deletes.includes(key);
}

function subAt(node: DiffNode, key: string, array: boolean): DiffNode {
  if (node.array) {
    const index = Number(key);
    const existing = node.items.get(index);
    if (existing && !('value' in existing)) return existing;
    const created = array ? arrayNode() : docNode();
    node.items.set(index, created);
    return created;
  }
  const existing = node.subs.get(key);
  if (existing) return existing;
  const created = array ? arrayNode() : docNode();
  node.subs.set(key, created);
  return created;
}

function serialize(node: DiffNode): Document {
  const out: Document = {};
  if (node.array) {
    out.a = true;
    if (node.resize !== undefined) out.l = node.resize;
    for (const index of [...node.items.keys()].sort((x, y) => x - y)) {
      const item = node.items.get(index)!;
      if ('value' in item) out[`u${index}`] = item.value;
      else out[`s${index}`] = serialize(item);
    }
    return out;
  }
  if (node.deletes.length > 0) out.d = Object.fromEntries(node.deletes.map((k) => [k, false]));
  if (node.updates.size > 0) out.u = Object.fromEntries(node.updates);
  if (node.inserts.size > 0) out.i = Object.fromEntries(node.inserts);
  for (const [key, sub] of node.subs) out[`s${key}`] = serialize(sub);
  return out;
}

/** What `{$v: 2, diff: X}` adds to X (update_oplog_entry_serialization: the delta's metadata). */
const DELTA_WRAPPER_BYTES = 4 + 1 + (1 + 3 + 4) + (1 + 5);

/**
 * A pipeline update's diff (document_diff_calculator.cpp computeOplogDiff), or undefined when it
 * would not be smaller than the new document, which is then logged whole as a replacement.
 */
export function deltaFromVersions(before: Document, after: Document): Document | undefined {
  const node = docDiff(before, after);
  if (!node) return undefined;
  const diff = serialize(node);
  return transientSize(diff) + DELTA_WRAPPER_BYTES < documentSize(after) ? diff : undefined;
}

/** Same value and same BSON type: the calculator's binaryEqual, with shared subtrees free. */
export function sameValue(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === typeof b && Array.isArray(a) === Array.isArray(b) && valuesEqual(a, b));
}

function docDiff(pre: Document, post: Document): DocNode | undefined {
  const node = docNode();
  const preKeys = Object.keys(pre);
  const postKeys = Object.keys(post);
  const pendingDeletes = new Set<string>();
  let i = 0;
  let j = 0;
  while (i < preKeys.length && j < postKeys.length) {
    const preKey = preKeys[i]!;
    const postKey = postKeys[j]!;
    if (preKey === postKey) {
      if (!sameValue(pre[preKey], post[postKey])) subDiff(node, preKey, pre[preKey], post[postKey]);
      i++;
      j++;
    } else {
      // Reinserted below if the field comes later in the new version.
      pendingDeletes.add(preKey);
      i++;
    }
  }
  for (; i < preKeys.length; i++) node.deletes.push(preKeys[i]!);
  for (; j < postKeys.length; j++) {
    node.inserts.set(postKeys[j]!, post[postKeys[j]!]);
    pendingDeletes.delete(postKeys[j]!);
  }
  node.deletes.push(...pendingDeletes);
  return node;
}

function arrayDiff(pre: unknown[], post: unknown[]): ArrayNode {
  const node = arrayNode();
  const common = Math.min(pre.length, post.length);
  for (let k = 0; k < common; k++) {
    if (!sameValue(pre[k], post[k])) subDiff(node, String(k), pre[k], post[k]);
  }
  for (let k = common; k < post.length; k++) node.items.set(k, { value: post[k] });
  if (pre.length > post.length) node.resize = post.length;
  return node;
}

/** Both documents or both arrays: a sub-diff unless it is not smaller than the new value. */
function subDiff(parent: DiffNode, key: string, pre: unknown, post: unknown): void {
  let sub: DiffNode | undefined;
  if (isPlainObject(pre) && isPlainObject(post)) sub = docDiff(pre, post);
  else if (Array.isArray(pre) && Array.isArray(post)) sub = arrayDiff(pre, post);
  if (sub && transientSize(serialize(sub)) < documentSize(post as object)) {
    if (parent.array) parent.items.set(Number(key), sub);
    else parent.subs.set(key, sub);
    return;
  }
  if (parent.array) parent.items.set(Number(key), { value: post });
  else parent.updates.set(key, post);
}

export interface UpdateDescription {
  updatedFields: Document;
  removedFields: string[];
  truncatedArrays: { field: string; newSize: number }[];
  /** Only in events of streams with showExpandedEvents. */
  disambiguatedPaths: Document;
}

interface PathPart {
  name: string;
  index: boolean;
  ambiguous: boolean;
}

/**
 * The updateDescription of a `$v: 2` diff, as change_stream_document_diff_parser.cpp reads it:
 * updated and inserted fields into updatedFields, deletes into removedFields, then sub-diffs;
 * an array's new size into truncatedArrays and its elements as `path.<index>`. A path with a
 * dotted field, or a numeric field name below the top level, is spelled out in
 * disambiguatedPaths (array indices as numbers).
 */
export function describeDelta(diff: Document): UpdateDescription {
  const out: UpdateDescription = { updatedFields: {}, removedFields: [], truncatedArrays: [], disambiguatedPaths: {} };
  readDocDiff(diff, [], out);
  return out;
}

function withPart(path: PathPart[], name: string, index: boolean): PathPart[] {
  const inherited = path.length > 0 && path[path.length - 1]!.ambiguous;
  const numeric = !index && path.length > 0 && /^(0|[1-9][0-9]*)$/.test(name);
  const dotted = !index && !numeric && name.includes('.');
  return [...path, { name, index, ambiguous: inherited || numeric || dotted }];
}

function note(path: PathPart[], out: UpdateDescription): string {
  const dotted = path.map((p) => p.name).join('.');
  if (path[path.length - 1]!.ambiguous)
    out.disambiguatedPaths[dotted] = path.map((p) => (p.index ? Number(p.name) : p.name));
  return dotted;
}

function readDocDiff(diff: Document, path: PathPart[], out: UpdateDescription): void {
  for (const section of ['u', 'i', 'b']) {
    const fields = diff[section] as Document | undefined;
    if (!fields) continue;
    for (const [name, value] of Object.entries(fields))
      out.updatedFields[note(withPart(path, name, false), out)] = value;
  }
  for (const name of Object.keys((diff.d as Document | undefined) ?? {}))
    out.removedFields.push(note(withPart(path, name, false), out));
  for (const [key, sub] of Object.entries(diff)) {
    if (key.length < 2 || key[0] !== 's') continue;
    readSubDiff(sub as Document, withPart(path, key.slice(1), false), out);
  }
}

function readSubDiff(diff: Document, path: PathPart[], out: UpdateDescription): void {
  if (diff.a !== true) {
    readDocDiff(diff, path, out);
    return;
  }
  if (typeof diff.l === 'number') out.truncatedArrays.push({ field: note(path, out), newSize: diff.l });
  for (const [key, value] of Object.entries(diff)) {
    if (key === 'a' || key === 'l') continue;
    const element = withPart(path, key.slice(1), true);
    if (key[0] === 'u') out.updatedFields[note(element, out)] = value;
    else readSubDiff(value as Document, element, out);
  }
}
