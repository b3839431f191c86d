// GraphQL Code Generator plugin: the SDK's operation table, one entry per operation, derived from
// the operation and the schema, so a new root field needs only its .graphql file and `npm run
// codegen`. Each entry tells the client how to call it:
//   args        'none' | 'single' (one required variable, passed positionally) | 'object'
//   keyField    the input field the SDK fills with a UUID v4 when the caller leaves it out
//   keyList     a list of the input (`field`) whose items each carry their own key (`key`), which
//               the SDK fills likewise, item by item (submitMoves' moves)
//   replays     the server answers a repeat with DuplicateReplayed, so an attempt whose outcome is
//               unknown (network error, 5xx) may be sent again with the same key
//   resumeArg   the subscription argument that resumes after an event's `cursor`
// It refuses operations the client could not call safely: not exactly one root field, an alias,
// a name that is not the field's, a union without __typename.
'use strict';
const {
  Kind,
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  isAbstractType,
} = require('graphql');

const KEY_FIELDS = ['requestId', 'idempotencyKey'];

/** The input's list field whose items each require a key field, if any. */
function keyListOf(inputFields) {
  for (const [name, def] of Object.entries(inputFields)) {
    const type = getNullableType(def.type);
    if (!isListType(type)) continue;
    const item = getNamedType(type);
    if (!isInputObjectType(item)) continue;
    const itemFields = item.getFields();
    const key = KEY_FIELDS.find((candidate) => itemFields[candidate] && isNonNullType(itemFields[candidate].type));
    if (key) return { field: name, key };
  }
  return null;
}

/** An object whose `results` list holds a union with DuplicateReplayed (a batch of keyed items). */
function resultsReplay(returnType) {
  if (!isObjectType(returnType)) return false;
  const results = returnType.getFields().results;
  if (!results || !isListType(getNullableType(results.type))) return false;
  const member = getNamedType(results.type);
  return isUnionType(member) && member.getTypes().some((t) => t.name === 'DuplicateReplayed');
}

function entryFor(schema, operation) {
  const name = operation.name?.value;
  const where = `operation ${name ?? '(anonymous)'}`;
  const rootType = {
    query: schema.getQueryType(),
    mutation: schema.getMutationType(),
    subscription: schema.getSubscriptionType(),
  }[operation.operation];
  const selections = operation.selectionSet.selections;
  if (selections.length !== 1 || selections[0].kind !== Kind.FIELD)
    throw new Error(`${where}: select exactly one root field`);
  const selection = selections[0];
  if (selection.alias) throw new Error(`${where}: no alias on the root field`);
  const field = selection.name.value;
  const fieldDef = rootType?.getFields()[field];
  if (!fieldDef) throw new Error(`${where}: ${operation.operation} has no field ${field}`);
  if (name !== field[0].toUpperCase() + field.slice(1))
    throw new Error(`${where}: name it ${field[0].toUpperCase()}${field.slice(1)}, after its field`);
  const returnType = getNamedType(fieldDef.type);
  if (isAbstractType(returnType)) {
    const typename = selection.selectionSet.selections.some(
      (s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias,
    );
    if (!typename) throw new Error(`${where}: select __typename on ${returnType.name}`);
  }
  const variables = operation.variableDefinitions ?? [];
  const required = variables.filter((v) => v.type.kind === Kind.NON_NULL_TYPE && !v.defaultValue);
  const entry = {
    field,
    args: 'object',
    argName: null,
    keyField: null,
    keyList: null,
    replays: false,
    resumeArg: null,
  };
  if (variables.length === 0) entry.args = 'none';
  else if (variables.length === 1 && required.length === 1) {
    entry.args = 'single';
    entry.argName = variables[0].variable.name.value;
    const argDef = fieldDef.args.find(
      (arg) =>
        arg.name ===
        selection.arguments?.find((a) => a.value.kind === Kind.VARIABLE && a.value.name.value === entry.argName)?.name
          .value,
    );
    const argType = argDef && getNullableType(argDef.type);
    if (operation.operation === 'mutation' && argType && isInputObjectType(argType)) {
      const inputFields = argType.getFields();
      entry.keyField = KEY_FIELDS.find((key) => inputFields[key] && isNonNullType(inputFields[key].type)) ?? null;
      entry.keyList = entry.keyField === null ? keyListOf(inputFields) : null;
    }
  }
  if (operation.operation === 'query') entry.replays = true;
  if (operation.operation === 'mutation' && isUnionType(returnType))
    entry.replays = returnType.getTypes().some((t) => t.name === 'DuplicateReplayed');
  // Every item keyed: a repeat replays each item (its own DuplicateReplayed), so it may be resent.
  if (entry.keyList !== null) entry.replays = true;
  // One answer per item (`results`), each able to say DuplicateReplayed: each item carries its own
  // key (completeWorkItems: id, workerId, version), so a repeat replays item by item.
  if (operation.operation === 'mutation' && resultsReplay(returnType)) entry.replays = true;
  if (operation.operation === 'subscription' && variables.some((v) => v.variable.name.value === 'after'))
    entry.resumeArg = 'after';
  return { kind: operation.operation, name, entry };
}

module.exports = {
  plugin(schema, documents) {
    const byKind = { query: [], mutation: [], subscription: [] };
    for (const { document } of documents) {
      for (const definition of document.definitions) {
        if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
        const { kind, name, entry } = entryFor(schema, definition);
        if (byKind[kind].some((other) => other.entry.field === entry.field))
          throw new Error(`two operations for ${kind} ${entry.field}`);
        byKind[kind].push({ name, entry });
      }
    }
    const lines = [
      '// Generated by `npm run codegen` (packages/sdk/codegen/operationTable.cjs); do not edit.',
      "import * as documents from './graphql.js';",
      '',
    ];
    for (const kind of ['query', 'mutation', 'subscription']) {
      const constName = { query: 'queries', mutation: 'mutations', subscription: 'subscriptions' }[kind];
      lines.push(`export const ${constName} = {`);
      for (const { name, entry } of byKind[kind].sort((a, b) => a.entry.field.localeCompare(b.entry.field))) {
        const { field, ...rest } = entry;
        const props = Object.entries(rest)
          .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
          .join(', ');
        lines.push(`  ${field}: { document: documents.${name}Document, ${props} },`);
      }
      lines.push('} as const;', '');
    }
    return lines.join('\n');
  },
};
