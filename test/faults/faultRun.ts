// The fault-injection run (issue 24 item 3), the way Jepsen tests databases: a workload, faults
// injected on a seeded schedule while it runs, and a checker over everything acknowledged.
//
// - Deployment: API processes (src/main.ts, as `npm start` runs it) on one three-member set
//   (support/replSet.ts: MongoMemoryReplSet or the emulator's member processes).
// - Workload: lanes of callers sending deposits, withdrawals, transfers, atomic batches and holds
//   (authorize, then capture or void) through the SDK, which retries with the same key; a caller
//   whose SDK gave up (its process died) sends the same key to the next process, until the answer
//   is final. Two SDK workers claim and complete the payouts the projection makes. Two subscribers (ledgerEntryAdded, through the
//   SDK, which resumes `after:` its last cursor) on the first two processes.
// - Faults, in an order and with targets drawn from the seed: SIGKILL of the primary (restarted
//   once a new one is elected), SIGSTOP of the primary until another is elected (longer than the
//   election timeout by construction) then SIGCONT, replSetStepDown, a secondary held back
//   (rsSyncApplyStop) while the workload acknowledges moves, SIGKILL of an API process with moves
//   in flight, SIGKILL of the payout projection's lease holder. A killed API process is started
//   again on its port, as a supervisor would, so SDK clients and subscribers find it again.
// - Checker: see `check` below; each violation is a line of the report, and the test expects none.
import { randomBytes } from 'node:crypto';
import { MongoClient, ReadPreference, type Db, type Document } from 'mongodb';
import {
  createClient,
  createWorker,
  PreconditionError,
  type PreconditionClient,
  type Worker,
} from '../../packages/sdk/src/index.ts';
import { PAYOUT_LEASE_NAME, projectionLeases } from '../../src/payouts/index.ts';
import { startAppProcess, type AppProcess } from '../support/app.ts';
import { answerLog, r5Violations, type AnswerLog } from '../support/answerLog.ts';
import { holdBack, startTestReplSet, stepDown, type TestReplSet, type TestSetMember } from '../support/replSet.ts';
import { waitFor } from '../support/waiting.ts';

export const FAULT_KINDS = [
  'primarySigkill',
  'primaryPause',
  'stepDown',
  'laggingSecondary',
  'apiSigkill',
  'leaseHolderSigkill',
  'wholeSetSigkill',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultRunOptions {
  seed: number;
  /** How long callers start new moves; the faults are spread over it. */
  workloadMs: number;
  /** How many faults, of the kinds drawn in seeded order (each kind once before any repeats). */
  faultCount: number;
  /** The kinds to draw from (default: every kind). */
  faultKinds?: readonly FaultKind[];
  apiProcesses: number;
  /** Callers sending moves at once. */
  lanes: number;
  accounts: number;
}

/**
 * G5's bound in this run: every key final within it of its first send. The members keep their
 * default transactionLifetimeLimitSeconds (60): a key in flight on a SIGKILLed process stays
 * RequestInProgress while that process's orphaned transaction holds its account, until a surviving
 * process's sweep ends it (R3, within 5 s); its replacement starts (tsx compiles the app: 15-60 s
 * measured on a 2-core machine at load 15-20), an election adds ~1-3 s and the SDK's backoff up to
 * 2 s a try.
 */
export const FINAL_BOUND_MS = 60_000;
/**
 * The whole set killed (power lost to the rack): every key sent before the set was back (a primary
 * elected on the restarted members) is final within this of that moment. A key in flight meets no
 * primary: its SDK retries UNAVAILABLE and OutcomeUnknown with backoff (up to 2 s a try), then its
 * caller sends it to the next process; the API processes reconnect on their own (the driver's
 * server selection: a heartbeat, 10 s, to see the set again, then 10 s at most per command), so
 * twice that and a few backoffs. Measured: 4-20 s on the 2-core machine at load 21.
 */
export const WHOLE_SET_FINAL_BOUND_MS = 45_000;
/** How long the checker waits for the projection, the subscribers and the replicas to catch up. */
const SETTLE_TIMEOUT_MS = 90_000;
/** The workers' leases: short, so that a worker cut off by a fault loses its items to the other within seconds. */
const WORKER_LEASE_SECONDS = 3;
/** API processes start slowly on a busy machine (tsx compiles the app). */
const API_START_TIMEOUT_MS = 120_000;
/** Moves the workload must acknowledge while a secondary is held back: the lag is under load. */
const MOVES_WHILE_LAGGING = 20;
const OPENING_BALANCE = 1_000;

type BatchMove = { kind: 'DEPOSIT' | 'WITHDRAW'; accountId: string; amount: number };
/** A hold: authorized (key `<key>-a`), then captured in part or voided (key `<key>-c`); `capture` null voids it. */
type HoldOp = { kind: 'hold'; accountId: string; amount: number; capture: number | null };
/** A deposit (key `<key>-d`), then a reversal of `reverse` of it (key `<key>-r`): L1 under faults. */
type ReversalOp = { kind: 'reversal'; accountId: string; amount: number; reverse: number };
/** A fresh account opened and funded (`<key>-d`), then closed into a workload account (`<key>-c`): L2 under faults. */
type CloseOp = { kind: 'close'; accountId: string; amount: number; toAccountId: string };
type Op =
  | { kind: 'batch'; moves: BatchMove[] }
  | { kind: 'deposit'; accountId: string; amount: number }
  | { kind: 'withdraw'; accountId: string; amount: number }
  | { kind: 'transfer'; fromAccountId: string; toAccountId: string; amount: number }
  | HoldOp
  | ReversalOp
  | CloseOp;

interface MoveRecord {
  key: string;
  op: Op;
  sentAt: number;
  finalAt?: number;
  /** The final answer's member name (a replay's original). */
  final?: string;
  /** A hold op's hold, once authorized. */
  holdId?: string;
  attempts: number;
  /** Errors the caller saw (the SDK gave up on a process), by code. */
  errors: string[];
  /** Each call's latency and when it ended, for the per-failover figures. */
  calls: Array<{ endedAt: number; ms: number; ok: boolean }>;
}

interface FaultRecord {
  kind: FaultKind;
  target: string;
  startedAt: number;
  /** A whole-set kill: when the restarted members had elected a primary again. */
  backAt?: number;
  /** When the deployment was whole again (a primary, every process listening, the member applying). */
  recoveredAt: number;
}

export interface FaultRunReport {
  faults: FaultRecord[];
  moves: MoveRecord[];
  violations: string[];
  table: string;
  /** Every GraphQL error code any client of the run was answered, by operation (R5). */
  errorCodes: Map<string, Map<string, number>>;
}

/** mulberry32: a small, fast PRNG with a 32-bit seed; the same seed gives the same run's choices. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface ApiSlot {
  index: number;
  port: number;
  process: AppProcess;
  client: PreconditionClient;
  inFlight: number;
}

export async function runFaultSuite(options: FaultRunOptions): Promise<FaultRunReport> {
  // Two streams from the seed: the workload's draws interleave by timing, the faults' must not.
  const random = prng(options.seed);
  const faultRandom = prng(options.seed ^ 0x9e3779b9);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const kindsOfRun = options.faultKinds ?? FAULT_KINDS;
  // Killing every member at once keeps only what is on disk: members on their own data directories.
  const set = await startTestReplSet({ durable: kindsOfRun.includes('wholeSetSigkill') });
  const dbName = `faults_${options.seed}_${randomBytes(3).toString('hex')}`;
  const slots: ApiSlot[] = [];
  const subscriberClients: PreconditionClient[] = [];
  const workerClientsToClose: PreconditionClient[] = [];
  let workers: Worker[] = [];
  const completedByWorkers: Array<{ itemId: string; workerId: string }> = [];
  const workerStats = { leaseLost: 0, errors: 0 };
  let checkClient: MongoClient | undefined;
  // R5: every answer any client of the run gets, retried ones included, is looked at.
  const answers = answerLog();
  try {
    const clientFor = (proc: AppProcess, key: string) =>
      createClient({
        url: proc.url,
        apiKey: key,
        fetch: answers.fetch,
        webSocketImpl: answers.WebSocket,
        retry: { maxAttempts: 8, maxElapsedMs: 10_000, maxDelayMs: 2_000 },
        attemptTimeoutMs: 15_000,
      });
    // One set of keys for every process of the run, replacements included: a client's key stays valid.
    const keys = {
      service: `fault-service-${randomBytes(8).toString('hex')}`,
      ops: `fault-ops-${randomBytes(8).toString('hex')}`,
    } as const;
    const startApi = (port = 0) =>
      startAppProcess({
        mongoUri: set.uri,
        dbName,
        startTimeoutMs: API_START_TIMEOUT_MS,
        apiKeys: { [keys.service]: 'service', [keys.ops]: 'ops' },
        env: { PORT: String(port) },
      });
    const started = await Promise.all(Array.from({ length: options.apiProcesses }, () => startApi()));
    for (const [index, proc] of started.entries()) {
      slots.push({
        index,
        port: Number(new URL(proc.url).port),
        process: proc,
        client: clientFor(proc, keys.service),
        inFlight: 0,
      });
    }
    checkClient = await MongoClient.connect(set.uri);
    const db = checkClient.db(dbName);

    const accounts = Array.from({ length: options.accounts }, (_, i) => `fault-${i}`);
    for (const accountId of accounts) {
      await settingUp(() => slots[0]!.client.openAccount({ accountId, currency: 'EUR' }));
      await settingUp(() =>
        slots[0]!.client.deposit({ accountId, amount: OPENING_BALANCE, requestId: `${dbName}-open-${accountId}` }),
      );
    }

    // Subscribers on the first two processes, from now on.
    const subscribers = slots.slice(0, 2).map((slot) => {
      const client = clientFor(slot.process, keys.ops);
      subscriberClients.push(client);
      const seen: SubscriberLog = { entries: [], resyncs: 0 };
      void (async () => {
        for await (const event of client.subscribe.ledgerEntryAdded({})) {
          if (event.__typename === 'ResyncRequired') seen.resyncs += 1;
          else if (event.__typename === 'LedgerEntryAdded')
            seen.entries.push({
              entryId: event.entryId,
              requestId: event.requestId,
              accountId: event.accountId,
              versionAfter: Number(event.versionAfter),
            });
        }
      })().catch((error: unknown) => (seen.failed = String(error)));
      return seen;
    });

    // Workers on the first two processes, claiming and completing the payouts the projection makes
    // of the withdrawals (W3 under faults): short leases, so that a worker whose process or primary
    // went away loses its items to the other, whose completions must then be the only ones taken.
    const workerClients = slots.slice(0, 2).map((slot) => clientFor(slot.process, keys.service));
    workerClientsToClose.push(...workerClients);
    workers = workerClients.map((client, i) =>
      createWorker({
        client,
        workerId: `fault-worker-${i}`,
        kinds: ['PAYOUT'],
        concurrency: 4,
        leaseSeconds: WORKER_LEASE_SECONDS,
        subscribe: false,
        poll: { minMs: 50, maxMs: 500 },
        handler: ({ item }) => ({
          paidBy: `fault-worker-${i}`,
          entryId: (item.payload as { entryId?: string } | null)?.entryId ?? null,
        }),
        on: {
          completed: ({ item }) => completedByWorkers.push({ itemId: item.id, workerId: `fault-worker-${i}` }),
          leaseLost: () => (workerStats.leaseLost += 1),
          error: () => (workerStats.errors += 1),
        },
      }),
    );

    // Live before the workload starts: a marker deposit both subscribers receive (a feed delivers
    // in commit order, so every later entry is owed to them).
    const marker = `${dbName}-open-marker`;
    await settingUp(() => slots[0]!.client.deposit({ accountId: accounts[0]!, amount: 1, requestId: marker }));
    for (const [i, subscriber] of subscribers.entries()) {
      await waitFor(
        async () => {
          if (subscriber.entries.some((e) => e.requestId === marker)) return true;
          // Not attached yet when the marker committed: another marker until one arrives.
          await settingUp(() =>
            slots[0]!.client.deposit({
              accountId: accounts[0]!,
              amount: 1,
              requestId: `${marker}-${i}-${randomBytes(3).toString('hex')}`,
            }),
          );
          return subscriber.entries.some((e) => e.requestId.startsWith(marker));
        },
        `subscriber ${i} live`,
        60_000,
      );
    }

    // ---- workload
    const moves: MoveRecord[] = [];
    /** The accounts the close ops open and close; the checker looks at them with the workload's. */
    const closeAccounts: string[] = [];
    const workloadEnd = Date.now() + options.workloadMs;
    let sent = 0;
    const nextOp = (): Op => {
      const roll = random();
      const amount = 1 + Math.floor(random() * 40);
      // B2: an atomic batch of 2-4 deposits/withdrawals on different accounts, one key per move.
      if (roll < 0.1) {
        const size = Math.min(accounts.length, 2 + Math.floor(random() * 3));
        const chosen = [...accounts].sort(() => random() - 0.5).slice(0, size);
        return {
          kind: 'batch',
          moves: chosen.map((accountId) => ({
            kind: random() < 0.5 ? 'DEPOSIT' : 'WITHDRAW',
            accountId,
            amount: 1 + Math.floor(random() * 40),
          })),
        };
      }
      // H1, H2 under faults: a hold authorized, then captured in part or voided, each step by its own key.
      if (roll < 0.18)
        return {
          kind: 'hold',
          accountId: pick(accounts),
          amount,
          capture: random() < 0.6 ? Math.max(1, Math.floor(amount / 2)) : null,
        };
      // L1, L2 under faults: a deposit reversed in part; a fresh account funded, then closed into a workload account.
      if (roll < 0.22)
        return { kind: 'reversal', accountId: pick(accounts), amount, reverse: Math.max(1, Math.floor(amount / 2)) };
      if (roll < 0.24) {
        const accountId = `${dbName}-close-${sent}`;
        closeAccounts.push(accountId);
        return { kind: 'close', accountId, amount, toAccountId: pick(accounts) };
      }
      if (roll < 0.3) return { kind: 'deposit', accountId: pick(accounts), amount };
      if (roll < 0.65) return { kind: 'withdraw', accountId: pick(accounts), amount };
      const fromAccountId = pick(accounts);
      return {
        kind: 'transfer',
        fromAccountId,
        toAccountId: pick(accounts.filter((a) => a !== fromAccountId)),
        amount,
      };
    };
    // Callers keep going until the workload time is over AND every fault was injected and
    // recovered from: each fault meets load, however long the ones before it took.
    let faultsFinished = false;
    const lanes = Array.from({ length: options.lanes }, async (_, lane) => {
      while (Date.now() < workloadEnd || !faultsFinished) {
        const n = sent++;
        const record: MoveRecord = {
          key: `${dbName}-m${n}`,
          op: nextOp(),
          sentAt: Date.now(),
          attempts: 0,
          errors: [],
          calls: [],
        };
        moves.push(record);
        await untilFinal(record, slots, (lane + n) % slots.length);
      }
    });

    // ---- faults
    const faults: FaultRecord[] = [];
    const kinds = faultOrder(kindsOfRun, options.faultCount, faultRandom);
    const faultsDone = (async () => {
      for (const [i, kind] of kinds.entries()) {
        const due = workloadEnd - options.workloadMs + ((i + 1) * options.workloadMs) / (kinds.length + 1);
        await waitFor(() => Date.now() >= due, `fault ${i} due`, options.workloadMs + 60_000);
        const startedAt = Date.now();
        const marks: { backAt?: number } = {};
        const target = await inject(kind, {
          set,
          slots,
          db,
          random: faultRandom,
          moves,
          marks,
          restartApi: async (slot) => restartApi(slot, startApi, clientFor, keys.service),
        });
        // Whole again before the next fault: every member primary or secondary (a restarted one
        // has finished its initial sync), so faults do not pile up into a lost majority.
        await set.allMembersUp();
        faults.push({ kind, target, startedAt, recoveredAt: Date.now(), ...marks });
        console.log(`[faults] ${kind} on ${target}: whole again after ${Date.now() - startedAt} ms`);
      }
    })().finally(() => {
      faultsFinished = true;
    });

    await Promise.all([...lanes, faultsDone]);

    // ---- checker
    const violations = await check({ db, moves, subscribers, accounts: [...accounts, ...closeAccounts], slots });
    violations.push(...checkWholeSetBound(faults, moves));
    // W2, W3: the workers finish every payout; each item's history is lawful and its completion came
    // from the worker holding its last claim (a worker that lost its lease was refused).
    const work = await checkWork(db, completedByWorkers);
    violations.push(...work.violations);
    // R5: no answer of any operation was INTERNAL_SERVER_ERROR, through every fault.
    violations.push(...r5Violations(answers));
    const table = `${formatTable(options, faults, moves, violations, answers.timeline)}\n\n${work.line} (${workerStats.leaseLost} leases lost by a worker, ${workerStats.errors} API calls failed and retried)\n${answers.line()}`;
    return { faults, moves, violations, table, errorCodes: answers.codes };
  } finally {
    await Promise.all(workers.map((worker) => worker.close({ timeoutMs: 2_000 }).catch(() => undefined)));
    for (const client of workerClientsToClose) await client.close().catch(() => undefined);
    for (const client of subscriberClients) await client.close().catch(() => undefined);
    for (const slot of slots) await slot.client.close().catch(() => undefined);
    for (const slot of slots) await slot.process.stop().catch(() => undefined);
    await checkClient?.close();
    await set.stop();
  }
}

/**
 * W2 and W3 over every PAYOUT item, once the workers have finished them (bounded by the settle
 * wait): each is DONE, its stored history runs version by version through lawful transitions with
 * DONE last, and the DONE transition is written by the worker of the claim right before it, so no
 * completion from a worker whose lease had been taken over was accepted. The workers' own record of
 * accepted completions must name the same worker, once per item.
 */
async function checkWork(
  db: Db,
  completedByWorkers: ReadonlyArray<{ itemId: string; workerId: string }>,
): Promise<{ violations: string[]; line: string }> {
  const violations: string[] = [];
  const read = { readPreference: ReadPreference.primary } as const;
  type Transition = { from: string | null; to: string; version: number; workerId: string | null };
  const items = db.collection<{ kind: string; status: string; version: number; history: Transition[] }>('workItems');
  const done = await waitFor(
    async () =>
      (await items.countDocuments({ kind: 'PAYOUT', status: { $ne: 'DONE' } }, read)) === 0 ? true : undefined,
    'the workers to finish every payout',
    SETTLE_TIMEOUT_MS,
  ).catch(() => false);
  const all = await items.find({ kind: 'PAYOUT' }, read).toArray();
  if (!done)
    violations.push(
      `W2: ${all.filter((item) => item.status !== 'DONE').length} of ${all.length} payouts not DONE after the settle wait`,
    );
  // docs/design.md, "Work-item transitions": a reclaim after the lease expired is PROCESSING -> PROCESSING.
  const lawful: Record<string, string[]> = {
    PENDING: ['PROCESSING'],
    PROCESSING: ['PROCESSING', 'DONE', 'PENDING', 'FAILED'],
    FAILED: ['PENDING'],
    DONE: [],
  };
  const accepted = new Map<string, string[]>();
  for (const c of completedByWorkers) accepted.set(c.itemId, [...(accepted.get(c.itemId) ?? []), c.workerId]);
  let takeovers = 0;
  for (const item of all) {
    const id = String(item._id);
    const history = item.history;
    for (let i = 1; i < history.length; i++) {
      const [before, after] = [history[i - 1]!, history[i]!];
      if (after.version !== before.version + 1)
        violations.push(`W2: item ${id} history jumps from v${before.version} to v${after.version}`);
      if (after.from !== before.to || !(lawful[before.to] ?? []).includes(after.to))
        violations.push(`W2: item ${id} went ${before.to}, then ${after.from} -> ${after.to} at v${after.version}`);
    }
    if (item.status !== 'DONE') continue;
    const last = history.at(-1);
    if (last?.to !== 'DONE' || last.version !== item.version)
      violations.push(`W2: item ${id} is DONE at v${item.version} but its history ends ${JSON.stringify(last)}`);
    const claim = history.at(-2);
    if (claim?.to !== 'PROCESSING' || claim.workerId !== last?.workerId)
      violations.push(`W3: item ${id} completed by ${last?.workerId} after a claim by ${claim?.workerId}`);
    if (history.filter((t) => t.to === 'PROCESSING').length > 1) takeovers += 1;
    const byWorkers = accepted.get(id) ?? [];
    if (byWorkers.length > 1 || (byWorkers.length === 1 && byWorkers[0] !== last?.workerId))
      violations.push(`W3: item ${id} completion accepted for ${byWorkers.join(', ')}, stored for ${last?.workerId}`);
  }
  const doneCount = all.filter((item) => item.status === 'DONE').length;
  return {
    violations,
    line: `work: ${all.length} payouts, ${doneCount} DONE by 2 workers, ${takeovers} claimed more than once`,
  };
}

interface SubscriberLog {
  entries: Array<{ entryId: string; requestId: string; accountId: string; versionAfter: number }>;
  resyncs: number;
  failed?: string;
}

/**
 * A call of the run's setup (openings, markers: no fault yet, nothing under test), sent again while
 * the process answers no attempt within the SDK's attempt timeout, as on a 2-core machine at load
 * 40, until API_START_TIMEOUT_MS. Each is safe twice: an opening by its account id, a deposit by its key.
 */
async function settingUp<T>(call: () => Promise<T>): Promise<T> {
  const until = Date.now() + API_START_TIMEOUT_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof PreconditionError) || error.code !== 'NETWORK_ERROR' || Date.now() > until) throw error;
    }
  }
}

/** Restarts a killed member; on a machine too loaded for it to print its ready line in time, once more. */
async function restartMember(member: TestSetMember): Promise<void> {
  await member.restart().catch(() => member.restart());
}

/** The kinds in the run's order: each kind once (seeded shuffle) before any repeats. */
function faultOrder(kinds: readonly FaultKind[], count: number, random: () => number): FaultKind[] {
  const order: FaultKind[] = [];
  while (order.length < count) {
    const round = [...kinds];
    for (let i = round.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    order.push(...round);
  }
  return order.slice(0, count);
}

const TRANSIENT = new Set(['RequestInProgress', 'OutcomeUnknown']);

/** Sends one key until its answer is final: the SDK retries on one process; when it gives up, the next process gets the same key. */
async function untilFinal(record: MoveRecord, slots: ApiSlot[], first: number): Promise<void> {
  for (let attempt = 0; Date.now() - record.sentAt < FINAL_BOUND_MS * 2; attempt += 1) {
    const slot = slots[(first + attempt) % slots.length]!;
    const started = performance.now();
    slot.inFlight += 1;
    try {
      record.attempts += 1;
      const answer = await send(slot.client, record);
      record.calls.push({ endedAt: Date.now(), ms: performance.now() - started, ok: true });
      const kind =
        answer.__typename === 'DuplicateReplayed'
          ? (answer.original?.__typename ?? 'DuplicateReplayed')
          : answer.__typename;
      if (!TRANSIENT.has(kind)) {
        record.final = kind;
        record.finalAt = Date.now();
        return;
      }
    } catch (error) {
      record.calls.push({ endedAt: Date.now(), ms: performance.now() - started, ok: false });
      record.errors.push(error instanceof PreconditionError ? error.code : String(error));
      // A process that died refuses connections until its replacement listens: try the next.
    } finally {
      slot.inFlight -= 1;
    }
  }
}

type Answer = { __typename: string; original?: { __typename: string } | null };

async function send(client: PreconditionClient, record: MoveRecord): Promise<Answer> {
  const { op, key } = record;
  switch (op.kind) {
    case 'batch': {
      // The same keys on every attempt; the batch is final when every move's answer is.
      const answer = await client.submitMoves({
        atomic: true,
        moves: op.moves.map((m, i) => ({ ...m, requestId: batchKey(key, i) })),
      });
      if (answer.__typename !== 'SubmitMovesSuccess') return answer as Answer;
      const kinds = answer.results.map((r) =>
        r.__typename === 'DuplicateReplayed'
          ? ((r as Answer).original?.__typename ?? 'DuplicateReplayed')
          : String(r.__typename),
      );
      if (kinds.some((k) => TRANSIENT.has(k))) return { __typename: 'RequestInProgress' };
      return { __typename: kinds.every((k) => APPLIED.has(k)) ? 'BatchApplied' : 'BatchRefused' };
    }
    case 'deposit':
      return (await client.deposit({ accountId: op.accountId, amount: op.amount, requestId: key })) as Answer;
    case 'withdraw':
      return (await client.withdraw({ accountId: op.accountId, amount: op.amount, requestId: key })) as Answer;
    case 'transfer':
      return (await client.transfer({
        fromAccountId: op.fromAccountId,
        toAccountId: op.toAccountId,
        amount: op.amount,
        requestId: key,
      })) as Answer;
    case 'hold':
      return sendHold(client, record, op);
    case 'reversal':
      return sendReversal(client, record, op);
    case 'close':
      return sendClose(client, record, op);
  }
}

/** The member of an answer, a replay's original's; transient members pass through. */
const memberOf = (answer: Answer): string =>
  answer.__typename === 'DuplicateReplayed' ? (answer.original?.__typename ?? 'DuplicateReplayed') : answer.__typename;

/** A deposit, then its partial reversal, each under its own key on every attempt: Reversed or ReversalRefused once both are final. */
async function sendReversal(client: PreconditionClient, record: MoveRecord, op: ReversalOp): Promise<Answer> {
  const deposited = memberOf(
    (await client.deposit({
      accountId: op.accountId,
      amount: op.amount,
      requestId: stepKey(record.key, 'd'),
    })) as Answer,
  );
  if (deposited !== 'DepositSuccess')
    return { __typename: TRANSIENT.has(deposited) ? deposited : `deposit: ${deposited}` };
  const reversed = memberOf(
    (await client.reverseMove({
      originalRequestId: stepKey(record.key, 'd'),
      amount: op.reverse,
      requestId: stepKey(record.key, 'r'),
    })) as Answer,
  );
  if (TRANSIENT.has(reversed)) return { __typename: reversed };
  if (reversed === 'ReverseMoveSuccess') return { __typename: 'Reversed' };
  // The workload's withdrawals may have taken the money first: refused, recorded for its key.
  return { __typename: reversed === 'InsufficientFunds' ? 'ReversalRefused' : `reverseMove: ${reversed}` };
}

/** A fresh account opened and funded, then closed into a workload account, each step keyed on every attempt: Closed once all are final. */
async function sendClose(client: PreconditionClient, record: MoveRecord, op: CloseOp): Promise<Answer> {
  const opened = memberOf((await client.openAccount({ accountId: op.accountId, currency: 'EUR' })) as Answer);
  if (opened !== 'OpenAccountSuccess') return { __typename: `openAccount: ${opened}` };
  const deposited = memberOf(
    (await client.deposit({
      accountId: op.accountId,
      amount: op.amount,
      requestId: stepKey(record.key, 'd'),
    })) as Answer,
  );
  if (deposited !== 'DepositSuccess')
    return { __typename: TRANSIENT.has(deposited) ? deposited : `deposit: ${deposited}` };
  const closed = memberOf(
    (await client.closeAccount({
      accountId: op.accountId,
      transferBalanceTo: op.toAccountId,
      requestId: stepKey(record.key, 'c'),
    })) as Answer,
  );
  if (TRANSIENT.has(closed)) return { __typename: closed };
  return { __typename: closed === 'CloseAccountSuccess' ? 'Closed' : `closeAccount: ${closed}` };
}

type HoldAnswer = Answer & { hold?: { id: string }; original?: (Answer & { hold?: { id: string } }) | null };

/**
 * A hold's two steps under the same keys on every attempt: the authorization (a replay answers it
 * with the hold), then its capture or void. Final once both are: HoldCaptured, HoldVoided, or
 * HoldRefused when the authorization was refused (too little available).
 */
async function sendHold(client: PreconditionClient, record: MoveRecord, op: HoldOp): Promise<Answer> {
  const authorized = (await client.authorizeHold({
    accountId: op.accountId,
    amount: op.amount,
    expiresInSeconds: 600,
    requestId: holdKey(record.key, 'a'),
  })) as HoldAnswer;
  const outcome = authorized.__typename === 'DuplicateReplayed' ? authorized.original : authorized;
  if (!outcome || TRANSIENT.has(outcome.__typename)) return { __typename: outcome?.__typename ?? 'RequestInProgress' };
  if (outcome.__typename !== 'AuthorizeHoldSuccess')
    return {
      __typename: outcome.__typename === 'InsufficientFunds' ? 'HoldRefused' : `authorizeHold: ${outcome.__typename}`,
    };
  record.holdId = outcome.hold!.id;
  const resolved = (
    op.capture === null
      ? await client.voidHold({ holdId: record.holdId, requestId: holdKey(record.key, 'c') })
      : await client.captureHold({ holdId: record.holdId, amount: op.capture, requestId: holdKey(record.key, 'c') })
  ) as HoldAnswer;
  const kind =
    resolved.__typename === 'DuplicateReplayed'
      ? (resolved.original?.__typename ?? 'DuplicateReplayed')
      : resolved.__typename;
  if (TRANSIENT.has(kind)) return { __typename: kind };
  if (kind === 'CaptureHoldSuccess') return { __typename: 'HoldCaptured' };
  if (kind === 'VoidHoldSuccess') return { __typename: 'HoldVoided' };
  return { __typename: `${op.capture === null ? 'voidHold' : 'captureHold'}: ${kind}` };
}

async function restartApi(
  slot: ApiSlot,
  startApi: (port: number) => Promise<AppProcess>,
  clientFor: (proc: AppProcess, key: string) => PreconditionClient,
  serviceKey: string,
): Promise<void> {
  await slot.process.main.exited;
  // On its port again, as a supervisor restarts a service: SDK clients and subscribers find it.
  const proc = await startApi(slot.port);
  const old = slot.client;
  slot.process = proc;
  slot.client = clientFor(proc, serviceKey);
  await old.close().catch(() => undefined);
}

interface InjectDeps {
  set: TestReplSet;
  slots: ApiSlot[];
  db: Db;
  random: () => number;
  moves: MoveRecord[];
  /** What the fault marks on its record (a whole-set kill: when the set was back). */
  marks: { backAt?: number };
  restartApi(slot: ApiSlot): Promise<void>;
}

/** Injects one fault and returns once the deployment is whole again; answers what it hit. */
async function inject(kind: FaultKind, deps: InjectDeps): Promise<string> {
  const { set, slots } = deps;
  switch (kind) {
    case 'primarySigkill': {
      const primary = await set.primary();
      primary.kill('SIGKILL');
      await set.primary(primary);
      await restartMember(primary);
      return `member ${primary.index}`;
    }
    case 'primaryPause': {
      const primary = await set.primary();
      primary.kill('SIGSTOP');
      try {
        await set.primary(primary);
      } finally {
        primary.kill('SIGCONT');
      }
      await set.primary();
      return `member ${primary.index}`;
    }
    case 'stepDown': {
      // The primary found may lose its office before the command reaches it (a member just
      // restarted, heartbeats settling): mongod then answers "not primary"; ask the new one. On a
      // loaded machine no secondary may have caught up within the 1 s catch-up period (mongod's
      // ExceededTimeLimit, "No electable secondaries caught up"): asked again, as an operator would.
      for (let attempt = 1; ; attempt += 1) {
        const primary = await set.primary();
        try {
          await stepDown(primary, 2);
        } catch (error) {
          if (attempt < 3 && error instanceof Error && /not primary/i.test(error.message)) continue;
          if (attempt < 10 && error instanceof Error && /no electable secondaries caught up/i.test(error.message))
            continue;
          throw error;
        }
        await set.primary(primary);
        return `member ${primary.index}`;
      }
    }
    case 'laggingSecondary': {
      const primary = await set.primary();
      const secondary = set.secondaries(primary)[Math.floor(deps.random() * 2)]!;
      const release = await holdBack(secondary, 'rsSyncApplyStop');
      const acknowledged = () => deps.moves.filter((m) => m.final !== undefined).length;
      const before = acknowledged();
      try {
        // Under load: held until the workload acknowledged some moves.
        await waitFor(
          () => acknowledged() >= before + MOVES_WHILE_LAGGING,
          `${MOVES_WHILE_LAGGING} moves acknowledged while member ${secondary.index} lags`,
          60_000,
        );
      } finally {
        await release();
      }
      return `member ${secondary.index}`;
    }
    case 'apiSigkill': {
      const slot = slots[Math.floor(deps.random() * slots.length)]!;
      // Mid-transaction: while it has moves in flight.
      await waitFor(() => slot.inFlight > 0, `moves in flight on API process ${slot.index}`, 30_000);
      slot.process.main.child.kill('SIGKILL');
      await deps.restartApi(slot);
      return `API process ${slot.index}`;
    }
    case 'wholeSetSigkill': {
      // Power lost to the rack: every member at once, under load (moves in flight), then each
      // started again on its own data, as an init system would.
      await waitFor(() => slots.some((slot) => slot.inFlight > 0), 'moves in flight', 30_000);
      for (const member of set.members) member.kill('SIGKILL');
      await Promise.all(set.members.map((member) => restartMember(member)));
      await set.primary();
      deps.marks.backAt = Date.now();
      return `all ${set.members.length} members`;
    }
    case 'leaseHolderSigkill': {
      const holder = await waitFor(
        async () =>
          (
            await projectionLeases(deps.db).findOne(
              { _id: PAYOUT_LEASE_NAME },
              { readPreference: ReadPreference.primary },
            )
          )?.holder,
        'a projection lease holder',
        60_000,
      );
      // A holder names its process as src/db/processLiveness.ts's newProcessId does: `<pid>-<random>`, then `/<lease>`.
      const slot = slots.find((s) => holder.startsWith(`${s.process.pid}-`));
      if (slot === undefined) return `none (holder ${holder} is no process of the run)`;
      slot.process.main.child.kill('SIGKILL');
      await deps.restartApi(slot);
      return `API process ${slot.index} (lease holder)`;
    }
  }
}

interface CheckDeps {
  db: Db;
  moves: MoveRecord[];
  subscribers: SubscriberLog[];
  accounts: string[];
  slots: ApiSlot[];
}

const APPLIED = new Set([
  'DepositSuccess',
  'WithdrawSuccess',
  'TransferSuccess',
  'BatchApplied',
  'HoldCaptured',
  'HoldVoided',
  'Reversed',
  'Closed',
]);
const REFUSED = new Set(['InsufficientFunds', 'BatchRefused', 'HoldRefused', 'ReversalRefused']);
const stepKey = (key: string, step: 'd' | 'r' | 'c') => `${key}-${step}`;
const holdKey = (key: string, step: 'a' | 'c') => `${key}-${step}`;
const batchKey = (key: string, i: number) => `${key}-b${i}`;

/**
 * After a whole-set kill, every key that was sent before the set was back is final within
 * WHOLE_SET_FINAL_BOUND_MS of that moment (G5 across it; R1 and the rest are the checker's).
 */
function checkWholeSetBound(faults: readonly FaultRecord[], moves: readonly MoveRecord[]): string[] {
  const violations: string[] = [];
  for (const fault of faults) {
    if (fault.backAt === undefined) continue;
    const late = moves.filter(
      (m) => m.sentAt < fault.backAt! && (m.finalAt ?? Infinity) > fault.backAt! + WHOLE_SET_FINAL_BOUND_MS,
    );
    for (const move of late.slice(0, 10)) {
      violations.push(
        `G5 (whole set): ${move.key} ${move.finalAt === undefined ? 'never final' : `final ${move.finalAt - fault.backAt!} ms`} after the set was back (bound ${WHOLE_SET_FINAL_BOUND_MS} ms)`,
      );
    }
  }
  return violations;
}

/** Every guarantee over everything acknowledged; each violation a line. */
async function check({ db, moves, subscribers, accounts, slots }: CheckDeps): Promise<string[]> {
  const violations: string[] = [];
  const read = { readPreference: ReadPreference.primary } as const;
  const entries = await db
    .collection('ledger_entries')
    .find({ accountId: { $in: accounts } }, read)
    .toArray();
  const byRequest = new Map<string, typeof entries>();
  for (const entry of entries) {
    const list = byRequest.get(String(entry['requestId'])) ?? [];
    list.push(entry);
    byRequest.set(String(entry['requestId']), list);
  }
  // G5: every key final, within the bound.
  for (const move of moves) {
    if (move.final === undefined)
      violations.push(`G5: ${move.key} never final (${move.attempts} attempts, errors ${move.errors.join(',')})`);
    else if (move.finalAt! - move.sentAt > FINAL_BOUND_MS)
      violations.push(`G5: ${move.key} final after ${move.finalAt! - move.sentAt} ms (> ${FINAL_BOUND_MS})`);
    else if (!APPLIED.has(move.final) && !REFUSED.has(move.final))
      violations.push(`${move.key}: unexpected final answer ${move.final}`);
  }
  // R1, G3: each acknowledged move present once; nothing for a refused one.
  for (const move of moves) {
    if (move.op.kind === 'batch') {
      // B2: an acknowledged atomic batch has each of its moves once, or none of them.
      const applied = move.final === 'BatchApplied';
      const counts = move.op.moves.map((_, i) => (byRequest.get(batchKey(move.key, i)) ?? []).length);
      if (counts.some((c) => c !== (applied ? 1 : 0)))
        violations.push(
          `R1/G3/B2: ${move.key} (${move.final}) has ${counts.reduce((a, b) => a + b, 0)} entries over its ${counts.length} moves (${counts.join(',')}), expected ${applied ? 'one each' : 'none'}`,
        );
      continue;
    }
    if (move.op.kind === 'hold') {
      // A captured hold is one withdrawal entry under the capture's key; an authorization or a void writes none.
      const captured = (byRequest.get(holdKey(move.key, 'c')) ?? []).length;
      const authorizing = (byRequest.get(holdKey(move.key, 'a')) ?? []).length;
      if (captured !== (move.final === 'HoldCaptured' ? 1 : 0) || authorizing !== 0)
        violations.push(
          `R1/G3/H2: hold ${move.key} (${move.final}) has ${captured} capture entries and ${authorizing} authorization entries`,
        );
      continue;
    }
    if (move.op.kind === 'reversal' || move.op.kind === 'close') {
      violations.push(...(await checkLifecycleMove(db, move, move.op, byRequest)));
      continue;
    }
    const written = byRequest.get(move.key) ?? [];
    const expected = move.final !== undefined && APPLIED.has(move.final) ? (move.op.kind === 'transfer' ? 2 : 1) : 0;
    if (written.length !== expected)
      violations.push(`R1/G3: ${move.key} (${move.final}) has ${written.length} entries, expected ${expected}`);
  }
  // G2: balance = journal, and money conserved: the balances' sum is deposits minus withdrawals.
  const accountDocs = await db
    .collection<{ _id: string; balance: unknown }>('accounts')
    .find({ _id: { $in: accounts } }, read)
    .toArray();
  let balances = 0;
  for (const account of accountDocs) {
    const journal = entries
      .filter((e) => e['accountId'] === account._id)
      .reduce(
        (sum, e) => sum + (e['kind'] === 'deposit' || e['kind'] === 'transferIn' ? 1 : -1) * Number(e['amount']),
        0,
      );
    if (Number(account.balance) !== journal)
      violations.push(`G2: ${account._id} balance ${Number(account.balance)} != journal ${journal}`);
    if (Number(account.balance) < 0) violations.push(`G1: ${account._id} balance ${Number(account.balance)} < 0`);
    balances += Number(account.balance);
  }
  // H1, H2: each account's held is the sum of its pending holds and never more than its balance;
  // each acknowledged hold ended as acknowledged (CAPTURED with the captured amount, or VOIDED).
  const holds = await db
    .collection<{ _id: string; accountId: string; status: string; amount: unknown; capturedAmount?: unknown }>(
      'ledger_holds',
    )
    .find({ accountId: { $in: accounts } }, read)
    .toArray();
  const heldDocs = await db
    .collection<{ _id: string; balance: unknown; held?: unknown }>('accounts')
    .find({ _id: { $in: accounts } }, read)
    .toArray();
  for (const account of heldDocs) {
    const pending = holds
      .filter((h) => h.accountId === account._id && h.status === 'PENDING')
      .reduce((sum, h) => sum + Number(h.amount), 0);
    if (Number(account.held ?? 0) !== pending)
      violations.push(`H1: ${account._id} held ${Number(account.held ?? 0)} != pending holds ${pending}`);
    if (Number(account.balance) - Number(account.held ?? 0) < 0)
      violations.push(`H1: ${account._id} available ${Number(account.balance) - Number(account.held ?? 0)} < 0`);
  }
  const holdById = new Map(holds.map((h) => [String(h._id), h]));
  for (const move of moves) {
    if (move.op.kind !== 'hold' || (move.final !== 'HoldCaptured' && move.final !== 'HoldVoided')) continue;
    const hold = move.holdId === undefined ? undefined : holdById.get(move.holdId);
    const want = move.final === 'HoldCaptured' ? 'CAPTURED' : 'VOIDED';
    if (hold?.status !== want)
      violations.push(`H2: hold ${move.key} acknowledged ${move.final} but stored ${hold?.status ?? 'nothing'}`);
    else if (
      want === 'CAPTURED' &&
      hold.capturedAmount !== undefined &&
      Number(hold.capturedAmount) !== move.op.capture
    )
      violations.push(`H2: hold ${move.key} captured ${Number(hold.capturedAmount)}, acknowledged ${move.op.capture}`);
  }
  const inflow = entries.filter((e) => e['kind'] === 'deposit').reduce((s, e) => s + Number(e['amount']), 0);
  // A reversed deposit's money left too (depositReversal), without a payout.
  const outflow = entries
    .filter((e) => e['kind'] === 'withdrawal' || e['kind'] === 'depositReversal')
    .reduce((s, e) => s + Number(e['amount']), 0);
  if (balances !== inflow - outflow)
    violations.push(`G2: balances sum ${balances} != deposits ${inflow} - withdrawals ${outflow}`);
  // P1: one payout per applied withdrawal, once the projection (possibly a new lease holder) caught up.
  const withdrawals = entries.filter((e) => e['kind'] === 'withdrawal').map((e) => String(e._id));
  const payoutsOk = await waitFor(
    async () => {
      const payouts = await db
        .collection('workItems')
        .find({ kind: 'PAYOUT', 'payload.entryId': { $in: withdrawals } }, read)
        .project({ 'payload.entryId': 1 })
        .toArray();
      return payouts.length >= withdrawals.length ? payouts : undefined;
    },
    'a payout per withdrawal',
    SETTLE_TIMEOUT_MS,
  ).catch(() => undefined);
  const payouts =
    payoutsOk ??
    (await db
      .collection('workItems')
      .find({ kind: 'PAYOUT', 'payload.entryId': { $in: withdrawals } }, read)
      .toArray());
  const payoutCount = new Map<string, number>();
  for (const payout of payouts)
    payoutCount.set(
      String(payout['payload']['entryId']),
      (payoutCount.get(String(payout['payload']['entryId'])) ?? 0) + 1,
    );
  for (const id of withdrawals)
    if (payoutCount.get(id) !== 1) violations.push(`P1: withdrawal ${id} has ${payoutCount.get(id) ?? 0} payouts`);
  // R4, S1: each subscriber got every entry once, in version order per account, or a ResyncRequired.
  // The openings were written before it subscribed: they are not owed to it.
  const owed = entries.filter((e) => !String(e['requestId']).includes('-open-'));
  for (const [i, subscriber] of subscribers.entries()) {
    const caughtUp = () => {
      const got = new Set(subscriber.entries.map((e) => e.entryId));
      return owed.every((e) => got.has(String(e._id)));
    };
    await waitFor(
      () => subscriber.resyncs > 0 || subscriber.failed !== undefined || caughtUp(),
      `subscriber ${i} to catch up`,
      SETTLE_TIMEOUT_MS,
    ).catch(() => undefined);
    if (subscriber.failed) violations.push(`R4: subscriber ${i} ended: ${subscriber.failed}`);
    const ids = subscriber.entries.map((e) => e.entryId);
    if (new Set(ids).size !== ids.length)
      violations.push(`R4/S1: subscriber ${i} got ${ids.length - new Set(ids).size} entries twice`);
    const last = new Map<string, number>();
    for (const event of subscriber.entries) {
      const previous = last.get(event.accountId);
      if (previous !== undefined && event.versionAfter <= previous && subscriber.resyncs === 0)
        violations.push(`R4/S1: subscriber ${i} got ${event.accountId} v${event.versionAfter} after v${previous}`);
      last.set(event.accountId, event.versionAfter);
    }
    if (subscriber.resyncs === 0 && !caughtUp()) {
      const got = new Set(ids);
      violations.push(
        `R4: subscriber ${i} missed ${owed.filter((e) => !got.has(String(e._id))).length} entries without a ResyncRequired`,
      );
    }
  }
  // The ledger audit, asked of an API process as an admin would: run at once, or queued for the
  // process holding the audit lease (then its next run's result is read).
  const api = slots[0]!.process;
  const asked = await api.gql(
    'mutation { runLedgerAudit { __typename ... on LedgerAuditFinished { audit { mismatchCount } } ... on LedgerAuditQueued { requestedAt } } }',
    {},
    { key: 'admin' },
  );
  const answer = asked.data?.runLedgerAudit;
  const mismatchCount: number | undefined =
    answer?.__typename === 'LedgerAuditFinished'
      ? answer.audit.mismatchCount
      : answer?.__typename === 'LedgerAuditQueued'
        ? await waitFor(
            async () => {
              const latest = (await api.gql('{ ledgerAudit { lastRunAt scope mismatchCount } }', {}, { key: 'admin' }))
                .data?.ledgerAudit;
              return latest && latest.scope === 'full' && new Date(latest.lastRunAt) >= new Date(answer.requestedAt)
                ? (latest.mismatchCount as number)
                : undefined;
            },
            'the queued ledger audit',
            SETTLE_TIMEOUT_MS,
          ).catch(() => undefined)
        : undefined;
  if (mismatchCount === undefined)
    violations.push(`audit: no finished run (${JSON.stringify(asked.errors ?? answer)})`);
  else if (mismatchCount !== 0) violations.push(`audit: ${mismatchCount} mismatches`);
  return violations;
}

/**
 * R1/G3 and L1, L2 for a reversal or a close: each step's entries once when acknowledged (the
 * deposit one, the reversal one, the close two: out of the closed account and into its target);
 * the reversed deposit's record holds the acknowledged reversal (L1); a closed account is CLOSED,
 * holds nothing and has no entry after its close (L2).
 */
async function checkLifecycleMove(
  db: Db,
  move: MoveRecord,
  op: ReversalOp | CloseOp,
  byRequest: Map<string, Document[]>,
): Promise<string[]> {
  const violations: string[] = [];
  const read = { readPreference: ReadPreference.primary } as const;
  const count = (step: 'd' | 'r' | 'c') => (byRequest.get(stepKey(move.key, step)) ?? []).length;
  const done = move.final !== undefined && (APPLIED.has(move.final) || REFUSED.has(move.final));
  if (count('d') !== (done ? 1 : 0))
    violations.push(
      `R1/G3: ${op.kind} ${move.key} (${move.final}) has ${count('d')} entries for its deposit, expected ${done ? 1 : 0}`,
    );
  if (op.kind === 'reversal') {
    const reversed = move.final === 'Reversed';
    if (count('r') !== (reversed ? 1 : 0))
      violations.push(
        `R1/G3: reversal ${move.key} (${move.final}) has ${count('r')} entries, expected ${reversed ? 1 : 0}`,
      );
    const original = await db
      .collection('ledger_requests')
      .findOne({ _id: `ledger:${stepKey(move.key, 'd')}` as never }, read);
    const total = Number(original?.['reversedAmount'] ?? 0);
    if (total !== (reversed ? op.reverse : 0))
      violations.push(
        `L1: deposit ${stepKey(move.key, 'd')} of ${op.amount} has ${total} reversed, acknowledged ${reversed ? op.reverse : 0}`,
      );
    return violations;
  }
  const closed = move.final === 'Closed';
  if (count('c') !== (closed ? 2 : 0))
    violations.push(`R1/G3: close ${move.key} (${move.final}) has ${count('c')} entries, expected ${closed ? 2 : 0}`);
  if (!closed) return violations;
  const account = await db.collection('accounts').findOne({ _id: op.accountId as never }, read);
  if (account?.['status'] !== 'CLOSED' || Number(account['balance']) !== 0 || Number(account['held'] ?? 0) !== 0) {
    violations.push(
      `L2: ${op.accountId} acknowledged closed but stored ${account?.['status'] ?? 'OPEN'} with balance ${Number(account?.['balance'])}`,
    );
  }
  const closing = (byRequest.get(stepKey(move.key, 'c')) ?? []).find((entry) => entry['accountId'] === op.accountId);
  const later =
    closing === undefined
      ? 0
      : await db
          .collection('ledger_entries')
          .countDocuments({ accountId: op.accountId, versionAfter: { $gt: closing['versionAfter'] } }, read);
  if (later > 0) violations.push(`L2: ${op.accountId} has ${later} entries after its close`);
  return violations;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function formatTable(
  options: FaultRunOptions,
  faults: FaultRecord[],
  moves: MoveRecord[],
  violations: string[],
  errorTimeline: AnswerLog['timeline'],
): string {
  const lines: string[] = [];
  const acknowledged = moves.filter((m) => m.final !== undefined);
  const applied = acknowledged.filter((m) => APPLIED.has(m.final!));
  const batches = moves.filter((m) => m.op.kind === 'batch');
  const lost = violations.filter((v) => v.startsWith('R1/G3') && / has 0 entries/.test(v)).length;
  const doubled = violations.filter((v) => v.startsWith('R1/G3') && !/ has 0 entries/.test(v)).length;
  const longest = Math.max(0, ...acknowledged.map((m) => m.finalAt! - m.sentAt));
  lines.push(
    `fault run: seed ${options.seed}, ${options.apiProcesses} API processes, ${options.lanes} callers, ${options.accounts} accounts, workload ${options.workloadMs} ms`,
  );
  lines.push('');
  lines.push('| faults by kind | count |');
  lines.push('|---|---|');
  for (const kind of FAULT_KINDS) lines.push(`| ${kind} | ${faults.filter((f) => f.kind === kind).length} |`);
  lines.push('');
  lines.push('| moves attempted | acknowledged (final) | applied | refused | lost | doubled | longest time to final |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(
    `| ${moves.length} | ${acknowledged.length} | ${applied.length} | ${acknowledged.length - applied.length} | ${lost} | ${doubled} | ${longest} ms (bound ${FINAL_BOUND_MS} ms) |`,
  );
  lines.push(
    `atomic batches (2-4 moves each, in the counts above): ${batches.length} sent, ${batches.filter((m) => m.final === 'BatchApplied').length} applied whole, ${batches.filter((m) => m.final === 'BatchRefused').length} refused whole`,
  );
  const holdOps = moves.filter((m) => m.op.kind === 'hold');
  const reversalOps = moves.filter((m) => m.op.kind === 'reversal');
  const closeOps = moves.filter((m) => m.op.kind === 'close');
  lines.push(
    `reversals and closes (in the counts above): ${reversalOps.length} deposits reversed in part sent, ${reversalOps.filter((m) => m.final === 'Reversed').length} reversed, ${reversalOps.filter((m) => m.final === 'ReversalRefused').length} refused (the money had left); ${closeOps.length} closes sent, ${closeOps.filter((m) => m.final === 'Closed').length} closed`,
  );
  lines.push(
    `holds (in the counts above): ${holdOps.length} sent, ${holdOps.filter((m) => m.final === 'HoldCaptured').length} captured in part, ${holdOps.filter((m) => m.final === 'HoldVoided').length} voided, ${holdOps.filter((m) => m.final === 'HoldRefused').length} refused at authorization`,
  );
  lines.push('');
  lines.push(
    '| fault | target | recovered in | calls during it | failed calls (SDK gave up) | p99 call latency | UNAVAILABLE answers | INTERNAL_SERVER_ERROR answers |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  for (const fault of faults) {
    const during = moves
      .flatMap((m) => m.calls)
      .filter((c) => c.endedAt >= fault.startedAt && c.endedAt <= fault.recoveredAt + 1_000);
    const back =
      fault.backAt === undefined
        ? ''
        : ` (a primary after ${fault.backAt - fault.startedAt} ms; keys in flight final ${Math.max(0, ...moves.filter((m) => m.sentAt < fault.backAt! && m.finalAt !== undefined && m.finalAt > fault.backAt!).map((m) => m.finalAt! - fault.backAt!))} ms after)`;
    // Every attempt's answer the SDK read, retried ones included (R5): those of this fault's window.
    const answered = errorTimeline.filter((e) => e.at >= fault.startedAt && e.at <= fault.recoveredAt + 1_000);
    const internal = answered.filter((e) => e.code === 'INTERNAL_SERVER_ERROR').length;
    lines.push(
      `| ${fault.kind} | ${fault.target} | ${fault.recoveredAt - fault.startedAt} ms${back} | ${during.length} | ${during.filter((c) => !c.ok).length} | ${Math.round(
        percentile(
          during.map((c) => c.ms),
          99,
        ),
      )} ms | ${answered.filter((e) => e.code === 'UNAVAILABLE').length} | ${internal} |`,
    );
  }
  const internalTotal = errorTimeline.filter((e) => e.code === 'INTERNAL_SERVER_ERROR').length;
  lines.push(
    `INTERNAL_SERVER_ERROR answers in the whole run: ${internalTotal}; UNAVAILABLE: ${errorTimeline.filter((e) => e.code === 'UNAVAILABLE').length}`,
  );
  lines.push('');
  lines.push(
    violations.length === 0
      ? 'checker: no violations'
      : `checker: ${violations.length} violations:\n${violations.slice(0, 50).join('\n')}`,
  );
  return lines.join('\n');
}
