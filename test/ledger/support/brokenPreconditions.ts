import { accountPreconditions, type AccountPreconditions } from '../../../src/ledger/index.ts';

/**
 * The seed's bug in filter form: the debit no longer requires `balance >= amount`, as if the
 * balance had been checked earlier on a read and then trusted. Everything else stays intact.
 */
export const debitWithoutBalanceCheck: AccountPreconditions = {
  ...accountPreconditions,
  debit(target) {
    const { balance: _dropped, ...rest } = accountPreconditions.debit(target) as Record<string, unknown>;
    return rest;
  },
};
