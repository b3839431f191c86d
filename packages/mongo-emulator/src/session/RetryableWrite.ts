import { CommandError } from '../errors.ts';
import type { Document } from '../engine/types.ts';
import type { LogicalSession } from './SessionRegistry.ts';

/**
 * The statements of one retryable write command (`lsid` + `txnNumber`). A statement already
 * applied under this txnNumber is not applied again: its first result is returned and its id
 * reported in `retriedStmtIds`, as mongod does.
 */
export class RetryableWrite {
  readonly retriedStmtIds: number[] = [];

  private constructor(
    private readonly session: LogicalSession,
    private readonly stmtIds: number[] | undefined,
    private readonly firstStmtId: number,
  ) {}

  /**
   * Starts (or resumes) the retryable write a command describes; undefined when the command
   * is not one (no txnNumber).
   */
  static begin(session: LogicalSession | undefined, command: Document): RetryableWrite | undefined {
    if (command.txnNumber === undefined) return undefined;
    if (!session) {
      throw new CommandError('InvalidOptions', 'Transaction number requires a session ID to also be specified');
    }
    const txnNumber = BigInt(command.txnNumber as bigint | number);
    if (txnNumber < session.txnNumber) {
      throw new CommandError(
        'TransactionTooOld',
        `Retryable write with txnNumber ${txnNumber} is prohibited on session ${session.key} because a newer retryable write with txnNumber ${session.txnNumber} has already started on this session.`,
      );
    }
    if (txnNumber > session.txnNumber) {
      session.txnNumber = txnNumber;
      session.executed.clear();
    }
    const stmtIds = Array.isArray(command.stmtIds) ? command.stmtIds.map(Number) : undefined;
    const firstStmtId = command.stmtId === undefined ? 0 : Number(command.stmtId);
    return new RetryableWrite(session, stmtIds, firstStmtId);
  }

  /** Whether statement `index` was already applied under this txnNumber. */
  isApplied(index: number): boolean {
    return this.session.executed.has(this.stmtIdOf(index));
  }

  /** The first result of statement `index` when it was already applied, else undefined. */
  previousResult<T>(index: number): T | undefined {
    const stmtId = this.stmtIdOf(index);
    if (!this.session.executed.has(stmtId)) return undefined;
    this.retriedStmtIds.push(stmtId);
    return this.session.executed.get(stmtId) as T;
  }

  record(index: number, result: unknown): void {
    this.session.executed.set(this.stmtIdOf(index), result);
  }

  /** The oplog session fields of statement `index` (its entries carry them). */
  sessionFields(
    command: Document,
    index: number,
  ): { owner: object; lsid: Document; txnNumber: bigint; stmtId: number } {
    return {
      owner: this.session,
      lsid: command.lsid as Document,
      txnNumber: this.session.txnNumber,
      stmtId: this.stmtIdOf(index),
    };
  }

  private stmtIdOf(index: number): number {
    return this.stmtIds?.[index] ?? this.firstStmtId + index;
  }
}
