// One logical session spoken over a raw socket, for the transaction fields the driver never
// sends in the wrong order (abort then commit, a stale txnNumber, readConcern mid-transaction).
import { Long, UUID, type Document } from 'bson';
import { opMsg, RawConnection } from '../wire/rawWire.ts';

export class RawSession {
  readonly lsid = { id: new UUID() };

  private constructor(private readonly connection: RawConnection) {}

  static async open(port: number): Promise<RawSession> {
    return new RawSession(await RawConnection.open(port));
  }

  /** Runs `command` on `db` under this session; `txnNumber` and transaction fields as given. */
  async run(db: string, command: Document, txn?: { txnNumber: number; start?: boolean }): Promise<Document> {
    const body: Document = { ...command, $db: db, lsid: this.lsid };
    if (txn) {
      body.txnNumber = Long.fromNumber(txn.txnNumber);
      body.autocommit = false;
      if (txn.start) body.startTransaction = true;
    }
    this.connection.send(opMsg(body));
    const reply = await this.connection.reply();
    if (!reply) throw new Error('the server closed the connection');
    return reply.document;
  }

  close(): void {
    this.connection.close();
  }
}
