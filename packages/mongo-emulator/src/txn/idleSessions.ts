// `$currentOp`'s idle sessions: an open transaction with no statement running, in the shape of
// mongod's TransactionParticipant::Participant::reportStashedState
// (src/mongo/db/transaction/transaction_participant.cpp): type 'idleSession', desc 'inactive
// transaction', the lsid, the transaction's parameters and times, and the client that ran its last
// statement (host:port, connection id, appName, client metadata). A process that survives another
// reads the appName there to find the transactions a dead process left open, and ends them with
// killSessions.
import type { Document } from '../engine/types.ts';
import type { TransactionCoordinator } from './TransactionCoordinator.ts';

export function idleSessionReports(transactions: TransactionCoordinator, host: string, now = new Date()): Document[] {
  const out: Document[] = [];
  for (const txn of transactions.idleTransactions()) {
    const client = txn.lastClient;
    const openMicros = BigInt(Math.max(0, now.getTime() - txn.startedAt.getTime()) * 1000);
    const inactiveMicros = BigInt(Math.max(0, now.getTime() - txn.idleSince.getTime()) * 1000);
    out.push({
      type: 'idleSession',
      host,
      desc: 'inactive transaction',
      ...(client ? { client: client.client, connectionId: client.connectionId } : {}),
      ...(client?.appName ? { appName: client.appName } : {}),
      ...(client?.clientMetadata ? { clientMetadata: client.clientMetadata } : {}),
      lsid: txn.lsid,
      transaction: {
        parameters: { txnNumber: txn.txnNumber, autocommit: false, readConcern: { level: 'snapshot' } },
        readTimestamp: txn.snapshotTime,
        startWallClockTime: txn.startedAt.toISOString(),
        timeOpenMicros: openMicros,
        timeActiveMicros: openMicros - inactiveMicros,
        timeInactiveMicros: inactiveMicros,
        ...(txn.expiresAt ? { expiryTime: txn.expiresAt.toISOString() } : {}),
      },
      active: false,
      waitingForLock: false,
    });
  }
  return out;
}
