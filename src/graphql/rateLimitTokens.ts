// How many rate-limit tokens an operation takes: one, unless a root field says it is counted by
// the length of one of its list arguments (submitMoves: one token per move, so a batch costs what
// its moves would cost one by one), or that each use of it is counted (ledgerTotals: a walk over
// the ledger each, so 30 aliases of it are 30 tokens, not one). A toolkit piece: a feature names
// the argument on its field (`@Extensions({ [rateLimitTokensFrom]: 'input.moves' })`) or the
// tokens of one use (`@Extensions({ [rateLimitTokensEach]: 1 })`), the admission screen
// (src/server) counts them, and neither knows the other.
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getArgumentValues,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/** The field extension naming the list argument (a path into the field's arguments) to count. */
export const rateLimitTokensFrom = 'rateLimitTokensFrom';
/** The field extension giving the tokens each use of the root field takes (each alias counts). */
export const rateLimitTokensEach = 'rateLimitTokensEach';

/** The root fields an operation selects, through inline fragments and fragment spreads (each spread once). */
function rootFields(
  selectionSet: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): FieldNode[] {
  const fields: FieldNode[] = [];
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) fields.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT)
      fields.push(...rootFields(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) fields.push(...rootFields(fragment.selectionSet, fragments, seen));
    }
  }
  return fields;
}

/**
 * What an operation costs in tokens: one, or, when root fields count a list argument
 * (`rateLimitTokensFrom`), the sum of those lists' lengths (at least one). Arguments that do not
 * coerce count nothing: the operation then fails on its own.
 */
export function operationTokens(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown> | null | undefined,
  fragments: ReadonlyMap<string, FragmentDefinitionNode> = new Map(),
): number {
  const root = schema.getRootType(operation.operation);
  if (!root) return 1;
  let tokens = 0;
  for (const selection of rootFields(operation.selectionSet, fragments)) {
    const each = root.getFields()[selection.name.value]?.extensions[rateLimitTokensEach];
    if (typeof each === 'number') tokens += each;
    const field = root.getFields()[selection.name.value];
    const path = field?.extensions[rateLimitTokensFrom];
    if (!field || typeof path !== 'string') continue;
    try {
      let value: unknown = getArgumentValues(field, selection, variables ?? {});
      for (const step of path.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[step];
      if (Array.isArray(value)) tokens += value.length;
    } catch {
      // Arguments that do not coerce: execution refuses the operation on its own.
    }
  }
  return Math.max(1, tokens);
}

/** `operationTokens` of the operation a document runs (by name, or its only one). */
export function documentTokens(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
): number {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((candidate) => candidate.name?.value === operationName)
    : operations[0];
  return operation ? operationTokens(schema, operation, variables, fragmentsOf(document)) : 1;
}

/** The document's fragment definitions by name. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions
      .filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION)
      .map((fragment) => [fragment.name.value, fragment]),
  );
}
