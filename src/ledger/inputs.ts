import { z } from 'zod';
import { jsonDepthExceeds } from '../lib/jsonDepth.ts';
import { type CursorKind, decodeCursor } from './cursor.ts';
import { cursorLengthMax, HoldLimits, idLengthMax, LifecycleLimits, pageSizeDefault, pageSizeMax } from './limits.ts';

// Input schemas of the ledger mutations. The resolver parses raw GraphQL arguments with these
// and turns failures into BAD_USER_INPUT before anything touches the database.

/** Printable ASCII without spaces: ids show up in logs, URLs and metrics labels. */
const printableId = (what: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(idLengthMax, `${what} must be at most ${idLengthMax} characters`)
    .regex(/^[\x21-\x7e]+$/, `${what} must be printable ASCII without spaces`);

const accountId = printableId('accountId');
const requestId = printableId('requestId');

/** Integer minor units, positive and exactly representable in JSON and JavaScript. */
const amount = z
  .number()
  .int('amount must be an integer number of minor units')
  .positive('amount must be positive')
  .max(Number.MAX_SAFE_INTEGER, 'amount must be at most 2^53-1');

/**
 * The caller's reference of a move (an invoice or bank transaction id): any text without control
 * characters, at most `LifecycleLimits.referenceLengthMax` characters. Absent: undefined.
 */
export const reference = z
  .string()
  .min(1, 'reference must not be empty (leave it out instead)')
  .max(LifecycleLimits.referenceLengthMax, `reference must be at most ${LifecycleLimits.referenceLengthMax} characters`)
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it refuses
  .regex(/^[^\x00-\x1f\x7f]+$/, 'reference must not hold control characters')
  .nullish()
  .transform((value) => value ?? undefined);

/**
 * A move's metadata: a JSON object, at most `metadataBytesMax` bytes of JSON and
 * `metadataDepthMax` levels (the object itself is one). The depth first, walked iteratively.
 * Stored as its JSON text (see `MoveParams.metadata`); absent: undefined.
 */
export const metadata = z
  .unknown()
  .superRefine((value, ctx) => {
    if (value === null || value === undefined) return;
    if (typeof value !== 'object' || Array.isArray(value)) {
      ctx.addIssue({ code: 'custom', message: 'metadata must be a JSON object' });
    } else if (jsonDepthExceeds(value, LifecycleLimits.metadataDepthMax)) {
      ctx.addIssue({
        code: 'custom',
        message: `metadata must nest at most ${LifecycleLimits.metadataDepthMax} levels`,
      });
    } else if (Buffer.byteLength(JSON.stringify(value)) > LifecycleLimits.metadataBytesMax) {
      ctx.addIssue({
        code: 'custom',
        message: `metadata must serialize to at most ${LifecycleLimits.metadataBytesMax} bytes of JSON`,
      });
    }
  })
  .transform((value) => (value === null || value === undefined ? undefined : JSON.stringify(value)))
  .optional();

/** What every money move may carry besides its parameters. */
const annotations = { reference, metadata };

export const openAccountInput = z.object({
  accountId,
  currency: z.string().regex(/^[A-Z]{3}$/, 'currency must be a 3-letter upper-case code such as EUR'),
});

export const depositInput = z.object({ accountId, amount, requestId, ...annotations });

export const withdrawInput = z.object({ accountId, amount, requestId, ...annotations });

export const transferInput = z
  .object({ fromAccountId: accountId, toAccountId: accountId, amount, requestId, ...annotations })
  .refine((input) => input.fromAccountId !== input.toAccountId, {
    message: 'fromAccountId and toAccountId must differ',
    path: ['toAccountId'],
  });

/**
 * One move of a batch: `accountId` is the account credited by a deposit, debited otherwise;
 * `toAccountId` is a transfer's credited account, and only a transfer's. Kinds are the service's
 * (lower case); the GraphQL enum maps onto them.
 */
const noToAccountId = z.null({ error: 'toAccountId is only for a transfer' }).optional();

export const moveInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('deposit'), requestId, accountId, amount, toAccountId: noToAccountId, ...annotations }),
  z.object({ kind: z.literal('withdraw'), requestId, accountId, amount, toAccountId: noToAccountId, ...annotations }),
  z
    .object({ kind: z.literal('transfer'), requestId, accountId, amount, toAccountId: accountId, ...annotations })
    .refine((move) => move.accountId !== move.toAccountId, {
      message: 'accountId and toAccountId must differ',
      path: ['toAccountId'],
    }),
]);

/**
 * A batch. Its size is not bounded here: past `submitMovesMax` the answer is BatchTooLarge, a
 * result of the contract, not an input error (the moves are then not even parsed one by one).
 */
export const submitMovesInput = z.object({
  atomic: z.boolean(),
  moves: z.array(moveInput).min(1, 'moves must hold at least one move'),
});

const holdId = printableId('holdId');

export const authorizeHoldInput = z.object({
  requestId,
  accountId,
  amount,
  expiresInSeconds: z
    .number()
    .int('expiresInSeconds must be an integer')
    .min(1, 'expiresInSeconds must be at least 1')
    .max(HoldLimits.expiresInSecondsMax, `expiresInSeconds must be at most ${HoldLimits.expiresInSecondsMax}`),
  ...annotations,
});

/** `amount` absent: the whole hold; `toAccountId` absent: out as a withdrawal. */
export const captureHoldInput = z.object({
  requestId,
  holdId,
  amount: amount.nullish().transform((value) => value ?? null),
  toAccountId: accountId.nullish().transform((value) => value ?? null),
  ...annotations,
});

export const voidHoldInput = z.object({ requestId, holdId });

/** `amount` absent: all that is left to reverse of the original. */
export const reverseMoveInput = z.object({
  requestId,
  originalRequestId: printableId('originalRequestId'),
  amount: amount.nullish().transform((value) => value ?? null),
});

export const closeAccountInput = z
  .object({ requestId, accountId, transferBalanceTo: printableId('transferBalanceTo') })
  .refine((input) => input.accountId !== input.transferBalanceTo, {
    message: 'transferBalanceTo must be another account',
    path: ['transferBalanceTo'],
  });

export type ReverseMoveInput = z.infer<typeof reverseMoveInput>;
export type CloseAccountInput = z.infer<typeof closeAccountInput>;

/** A parsed input whose `reference` and `metadata` in-process callers (tests, the demo) may leave out. */
type Annotated<T> = T extends unknown
  ? Omit<T, 'reference' | 'metadata'> & { reference?: string | undefined; metadata?: string | undefined }
  : never;

export type AuthorizeHoldInput = Annotated<z.infer<typeof authorizeHoldInput>>;
export type CaptureHoldInput = Annotated<z.infer<typeof captureHoldInput>>;
export type VoidHoldInput = z.infer<typeof voidHoldInput>;

export type OpenAccountInput = z.infer<typeof openAccountInput>;
export type MoveInput = Annotated<z.infer<typeof moveInput>>;
export type SubmitMovesInput = Omit<z.infer<typeof submitMovesInput>, 'moves'> & { moves: MoveInput[] };
export type DepositInput = Annotated<z.infer<typeof depositInput>>;
export type WithdrawInput = Annotated<z.infer<typeof withdrawInput>>;
export type TransferInput = Annotated<z.infer<typeof transferInput>>;

const first = z
  .number()
  .int('first must be an integer')
  .min(1, 'first must be at least 1')
  .max(pageSizeMax, `first must be at most ${pageSizeMax}`)
  .default(pageSizeDefault);

const after = (kind: CursorKind) =>
  z
    .string()
    .max(cursorLengthMax, 'after is not a cursor of this list')
    .transform((cursor, context) => {
      const position = decodeCursor(kind, cursor);
      if (position === null) context.addIssue({ code: 'custom', message: 'after is not a cursor of this list' });
      return position ?? '';
    })
    .nullish();

export const accountsPageInput = z.object({ first, after: after('account') });

export const entriesPageInput = z.object({
  accountId,
  first,
  // A version: digits that make a safe integer (a longer run of digits is no version this API
  // issued, and would not survive the conversion to the stored Long).
  after: after('entry').refine(
    (position) => position == null || (/^\d{1,16}$/.test(position) && Number.isSafeInteger(Number(position))),
    'after is not a cursor of this list',
  ),
});

export const ledgerEntryInput = z.object({ requestId });

export type AccountsPageInput = z.infer<typeof accountsPageInput>;
export type EntriesPageInput = z.infer<typeof entriesPageInput>;

export const accountIdQuery = z.object({ id: accountId });

export const holdIdQuery = z.object({ id: holdId });

export const holdsPageInput = z.object({
  accountId,
  status: z
    .enum(['PENDING', 'CAPTURED', 'VOIDED', 'EXPIRED'])
    .nullish()
    .transform((value) => value ?? null),
  first,
  // `<createdAt ms>:<hold id>`, as holds() issued it.
  after: after('hold').refine(
    (position) => position == null || /^\d{1,16}:[\x21-\x7e]{1,128}$/.test(position),
    'after is not a cursor of this list',
  ),
});
export type HoldsPageInput = z.infer<typeof holdsPageInput>;

/** `balanceAt(at)` and the balance history. */
export const balanceHistoryInput = z.object({
  accountId,
  first,
  /** At or before this time only (newest first); absent: now. */
  at: z
    .date()
    .nullish()
    .transform((value) => value ?? null),
  after: after('balance').refine(
    (position) => position == null || (/^\d{1,16}$/.test(position) && Number.isSafeInteger(Number(position))),
    'after is not a cursor of this list',
  ),
});
export type BalanceHistoryInput = z.infer<typeof balanceHistoryInput>;
