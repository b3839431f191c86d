// The GraphQL documents the bench sends, selecting what a real client would read back.
import { fileURLToPath } from 'node:url';
import { readManifest } from '../src/access/trustedDocumentsManifest.ts';

const SDK_MANIFEST = fileURLToPath(new URL('../packages/sdk/trusted-documents.json', import.meta.url));

/** The text of the SDK's operation `name`, from its trusted-documents manifest. */
export function sdkDocument(name: string): string {
  const manifest = readManifest(SDK_MANIFEST);
  if (!manifest.ok) throw new Error(manifest.error);
  const text = [...manifest.texts].find((candidate) => new RegExp(`\\b(query|mutation) ${name}\\b`).test(candidate));
  if (text === undefined) throw new Error(`the SDK has no operation ${name} (${SDK_MANIFEST})`);
  return text;
}

export const OPEN_ACCOUNT = `mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`;

export const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;

/**
 * The SDK's own Withdraw document, byte for byte as its clients send it: a trusted document, so the
 * API runs it through its compiled plan (src/server/compiledExecution.ts), as it runs the SDK's
 * traffic. It selects more than a bare client would (the account and the whole entry).
 */
export const WITHDRAW = sdkDocument('Withdraw');

export const TRANSFER = `mutation ($input: TransferInput!) { transfer(input: $input) {
  __typename ... on TransferSuccess { debit { id balanceAfter } credit { id balanceAfter } } } }`;

export const ENTRIES_PAGE = `query ($id: ID!) { account(id: $id) { __typename balance version
  entries(first: 50) { items { id kind amount balanceAfter createdAt } hasNextPage endCursor } } }`;

export const CREATE_WORK_ITEM = `mutation ($input: CreateWorkItemInput!) { createWorkItem(input: $input) {
  __typename ... on CreateWorkItemSuccess { item { id } } } }`;

export const CLAIM_WORK_ITEM = `mutation ($input: ClaimWorkItemInput!) { claimWorkItem(input: $input) {
  __typename ... on ClaimSuccess { item { id version payload } } } }`;

export const COMPLETE_WORK_ITEM = `mutation ($input: CompleteWorkItemInput!) { completeWorkItem(input: $input) { __typename } }`;

export const WORK_QUEUE_STATS = `query { workQueueStats { conflictsSinceStart } }`;

export const SUBMIT_MOVES = `mutation ($input: SubmitMovesInput!) { submitMoves(input: $input) {
  __typename ... on SubmitMovesSuccess { results { __typename ... on WithdrawSuccess { entry { id balanceAfter } } } } } }`;

export const AUTHORIZE_HOLD = `mutation ($input: AuthorizeHoldInput!) { authorizeHold(input: $input) { __typename ... on AuthorizeHoldSuccess { hold { id } } } }`;

export const CAPTURE_HOLD = `mutation ($input: CaptureHoldInput!) { captureHold(input: $input) { __typename } }`;
