// Index specifications: validation at creation, option equality, and the listIndexes shape.
import { CommandError } from '../errors.ts';
import { cloneValue } from './clone.ts';
import { valuesEqual } from './compare.ts';
import type { Document, IndexSpec } from './types.ts';

/** Options that make two indexes on one key pattern different indexes. */
const DISTINGUISHING_OPTIONS = [
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'collation',
  'hidden',
];

const KNOWN_OPTIONS = new Set([
  'key',
  'name',
  'v',
  'unique',
  'sparse',
  'partialFilterExpression',
  'expireAfterSeconds',
  'collation',
  'hidden',
  'background',
  'ns',
  'weights',
  'default_language',
  'language_override',
  'textIndexVersion',
  '2dsphereIndexVersion',
  'bits',
  'min',
  'max',
  'wildcardProjection',
  'storageEngine',
]);

export function checkIndexSpec(spec: IndexSpec): void {
  if (!spec.key || typeof spec.key !== 'object' || Object.keys(spec.key).length === 0) {
    throw new CommandError('CannotCreateIndex', 'Index keys cannot be empty.');
  }
  if (typeof spec.name !== 'string' || spec.name === '') {
    throw new CommandError('CannotCreateIndex', 'The index name cannot be empty');
  }
  for (const option of Object.keys(spec)) {
    if (!KNOWN_OPTIONS.has(option)) {
      throw new CommandError(
        'InvalidIndexSpecificationOption',
        `The field '${option}' is not valid for an index specification. Specification: ${spec.name}`,
      );
    }
  }
  if (spec.name === '_id_' || Object.keys(spec.key).join() === '_id') {
    if (spec.unique === false)
      throw new CommandError(
        'InvalidIndexSpecificationOption',
        "The field 'unique' is not valid for an _id index specification",
      );
  }
}

function optionValue(spec: IndexSpec, option: string): unknown {
  const v = spec[option];
  return option === 'unique' || option === 'sparse' || option === 'hidden' ? v === true : v;
}

export function indexOptionsEqual(a: IndexSpec, b: IndexSpec): boolean {
  return DISTINGUISHING_OPTIONS.every((o) => valuesEqual(optionValue(a, o) ?? null, optionValue(b, o) ?? null));
}

/** The index as listIndexes shows it: v, key, name, then the options that were given. */
export function listedSpec(spec: IndexSpec): Document {
  const { key, name, v: _v, ns: _ns, background: _bg, ...options } = spec;
  const out: Document = { v: 2, key: cloneValue(key), name };
  for (const [k, val] of Object.entries(options)) {
    if (val !== undefined && !(k === 'unique' && val === false && name !== '_id_')) out[k] = cloneValue(val);
  }
  return out;
}
