// Every bound of the ledger in one place. Units go last in the names.

/**
 * Attempts of one move's transaction (same key) before the caller hears a transient answer
 * (RequestInProgress or OutcomeUnknown) and retries later with the same key.
 */
export const moveAttemptsMax = 100;
/**
 * Wall time one call spends on its move, waiting for its account's turn included: a crashed
 * process's open transaction can hold an account until the server's
 * transactionLifetimeLimitSeconds, and the caller should hear back before that.
 */
export const moveRetryBudgetMs = 10_000;
/** First pause between two attempts; doubles each attempt up to `moveBackoffMaxMs`, with full jitter. */
export const moveBackoffBaseMs = 1;
/**
 * Largest pause between two attempts. Short: the transaction that holds the account needs a few
 * milliseconds, and an account nobody writes while all its contenders sleep is wasted.
 */
export const moveBackoffMaxMs = 16;
/** Largest page any list query returns. */
export const pageSizeMax = 100;
/** Page size when the caller names none. */
export const pageSizeDefault = 20;
/** Longest account id or request id accepted. */
export const idLengthMax = 128;
/** Longest page cursor accepted (an encoded account id fits easily). */
export const cursorLengthMax = 256;
/** Accounts one balance subscription may follow (a console page of accounts, not a crawl). */
export const accountsPerSubscriptionMax = 100;

/** The dashboard reads (`ledgerEntries`, `ledgerTotals`, `ledgerRequest`). */
export const DashboardLimits = Object.freeze({
  /** Largest page of `ledgerEntries`. */
  entriesPageMax: 100,
  entriesPageDefault: 20,
  /** `totalCount` stops counting here (`totalCountCapped` then says so): a count is an index walk. */
  entriesCountMax: 10_000,
});
