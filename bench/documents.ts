// The GraphQL documents the bench sends, selecting what a real client would read back.

export const OPEN_ACCOUNT = `mutation ($input: OpenAccountInput!) { openAccount(input: $input) { __typename } }`;

export const DEPOSIT = `mutation ($input: DepositInput!) { deposit(input: $input) { __typename } }`;

export const WITHDRAW = `mutation ($input: WithdrawInput!) { withdraw(input: $input) {
  __typename
  ... on WithdrawSuccess { entry { id balanceAfter } }
  ... on DuplicateReplayed { original { __typename ... on WithdrawSuccess { entry { id balanceAfter } } } } } }`;

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
