import type { TestApp } from '../../support/app.ts';

/** A `call(document, variables)` for one role that returns `data` and throws on GraphQL errors. */
export function callAs(app: TestApp, role: 'worker' | 'service' | 'ops' | 'admin' | 'dashboard') {
  return async (document: string, variables: Record<string, unknown> = {}) => {
    const response = await app.gql(document, variables, { key: role });
    if (response.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(response.errors)}`);
    return response.data;
  };
}

export const CREATE = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) {
  __typename
  ... on CreateWorkItemSuccess { item { id version status } }
  ... on DuplicateReplayed { requestId original { __typename ... on CreateWorkItemSuccess { item { id } } } }
  ... on IdempotencyKeyReused { requestId } } }`;

export const CLAIM_BY_ID = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) {
  __typename
  ... on ClaimSuccess { item { id version status lockedBy } }
  ... on ConflictLost { operation item { status version lockedBy } } } }`;
