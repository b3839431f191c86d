// How many rate-limit tokens an operation takes: one, unless a root field says it is counted by
// the length of one of its list arguments (submitMoves: one token per move, so a batch costs what
// its moves would cost one by one). A toolkit piece: a feature names the argument on its field
// (`@Extensions({ [rateLimitTokensFrom]: 'input.moves' })`), the admission screen (src/server)
// counts it, and neither knows the other.
import { type DocumentNode, getArgumentValues, type GraphQLSchema, Kind, type OperationDefinitionNode } from 'graphql';

/** The field extension naming the list argument (a path into the field's arguments) to count. */
export const rateLimitTokensFrom = 'rateLimitTokensFrom';

/**
 * What an operation costs in tokens: one, or, when root fields count a list argument
 * (`rateLimitTokensFrom`), the sum of those lists' lengths (at least one). Arguments that do not
 * coerce count nothing: the operation then fails on its own.
 */
export function operationTokens(schema: GraphQLSchema, operation: OperationDefinitionNode, variables: Record<string, unknown> | null | undefined): number {
  const root = schema.getRootType(operation.operation);
  if (!root) return 1;
  let tokens = 0;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
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
export function documentTokens(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, variables: Record<string, unknown> | null | undefined): number {
  const operations = document.definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((candidate) => candidate.name?.value === operationName) : operations[0];
  return operation ? operationTokens(schema, operation, variables) : 1;
}
