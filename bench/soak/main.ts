// `npm run soak -- --minutes N` (issue 42 item 3): the mixed workload for N minutes against two
// API processes (src/main.ts, as `npm start` runs it) and a three-member set on its data
// directories (the emulator's --dbpath, or three mongod where a binary can be had): money moves,
// holds, atomic batches, work items completed by the SDK's worker (with the payouts the
// projection makes), and 100 subscribers. Every 10 s it samples each API process's and each
// member's RSS, heap, handles and event-loop delay, the calls' p50/p99 latency and the oplog
// window, into docs/<name>.csv (a row per sample, written as it goes); at the end it checks that
// nothing acknowledged was lost, draws docs/<name>.png, judges the targets (bench/soak/verdict.ts)
// and prints the verdict; the exit code is 0 only when it passes.
//
//   npm run soak -- --minutes 60            # the hour the targets are stated for
//   npm run soak -- --minutes 3 --name soak-short
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MongoClient, ReadPreference } from 'mongodb';
import {
  createClient,
  createWorker,
  PreconditionError,
  type PreconditionClient,
  type Worker,
} from '../../packages/sdk/src/index.ts';
import { answerLog, r5Violations } from '../../test/support/answerLog.ts';
import { startAppProcess, type AppProcess } from '../../test/support/app.ts';
import { startReplicaSet } from '@precondition/mongo-emulator';
import { waitFor } from '../../test/support/waiting.ts';
import { buildProcessBundles } from '../../scripts/buildProcesses.ts';
import { plotSoak } from './plot.ts';
import { judge, type SoakSample } from './verdict.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '60' },
    rate: { type: 'string', default: '20' },
    subscribers: { type: 'string', default: '100' },
    name: { type: 'string', default: 'soak' },
    out: { type: 'string', default: 'docs' },
  },
});
const MINUTES = Number(args.minutes);
/** Operations started per second, all lanes together: steady load, far below what the machine can take. */
const RATE = Number(args.rate);
const SUBSCRIBERS = Number(args.subscribers);
const SAMPLE_MS = 10_000;
const LANES = 8;
const ACCOUNTS = 20;
const OPENING_BALANCE = 1_000_000;
/** A key not final after this is an error (a failover is not part of a soak). */
const FINAL_WITHIN_MS = 60_000;
const SETTLE_MS = 120_000;
const TRANSIENT = new Set(['RequestInProgress', 'OutcomeUnknown']);

if (!(MINUTES > 0) || !(RATE > 0) || !(SUBSCRIBERS >= 0))
  throw new Error('usage: npm run soak -- --minutes N [--rate OPS_PER_S] [--subscribers N] [--name NAME] [--out DIR]');

type Kind = 'deposit' | 'withdraw' | 'transfer' | 'hold' | 'batch' | 'work';
interface Ack {
  kind: Kind;
  key: string;
  /** The final answer's member (a replay's original). */
  final: string;
  size?: number;
}

const calls: Array<{ ms: number }> = [];
let errorsInWindow = 0;
const totals = { calls: 0, errors: 0 };
const errorSamples: string[] = [];

function noteError(what: string): void {
  totals.errors += 1;
  errorsInWindow += 1;
  if (errorSamples.length < 20) errorSamples.push(what);
}

async function timed<T>(call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    calls.push({ ms: performance.now() - started });
    totals.calls += 1;
  }
}

type Answer = {
  __typename: string;
  original?: { __typename: string } | null;
  hold?: { id: string };
  results?: Answer[];
};
const finalOf = (answer: Answer) =>
  answer.__typename === 'DuplicateReplayed' ? (answer.original?.__typename ?? 'DuplicateReplayed') : answer.__typename;

/** The same call (same keys) until its answer is final; an SDK error is counted, and the next process tried. */
async function untilFinal(
  clients: PreconditionClient[],
  first: number,
  call: (client: PreconditionClient) => Promise<Answer>,
): Promise<Answer | undefined> {
  const startedAt = Date.now();
  for (let attempt = 0; Date.now() - startedAt < FINAL_WITHIN_MS; attempt++) {
    try {
      const answer = await timed(() => call(clients[(first + attempt) % clients.length]!));
      const kind = finalOf(answer);
      const batchPending = answer.results?.some((r) => TRANSIENT.has(finalOf(r))) ?? false;
      if (!TRANSIENT.has(kind) && !batchPending) return answer;
    } catch (error) {
      noteError(error instanceof PreconditionError ? `${error.code}: ${error.message}` : String(error));
    }
  }
  noteError(`not final within ${FINAL_WITHIN_MS} ms`);
  return undefined;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** One value of a Prometheus text exposition (the first series of that name). */
function metric(text: string, name: string): number {
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

function procStatusKb(pid: number, field: string): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
}

async function main(): Promise<void> {
  mkdirSync(args.out, { recursive: true });
  const csvPath = join(args.out, `${args.name}.csv`);
  const pngPath = join(args.out, `${args.name}.png`);
  const dbName = `soak_${randomBytes(3).toString('hex')}`;
  // The API processes and the members run from bundles of the sources (as under npm test).
  console.log(`[soak] process bundles: ${await buildProcessBundles()}`);
  // The emulator's three member processes, each on its own data directory (--dbpath), at mongod's
  // default election timings: the durable set production would run where no mongod can be had.
  const dbpath = mkdtempSync(join(tmpdir(), 'soak-set-'));
  const set = await startReplicaSet({ nodes: 3, dbpath });
  const memberClients = set.members.map(
    (m) => new MongoClient(`mongodb://${m.address}/?directConnection=true`, { serverSelectionTimeoutMS: 5_000 }),
  );
  const processes: AppProcess[] = [];
  const clients: PreconditionClient[] = [];
  const workers: Worker[] = [];
  const otherClients: PreconditionClient[] = [];
  const answers = answerLog();
  const check = await MongoClient.connect(set.uri);
  let stopping = false;
  try {
    const serviceKey = `soak-service-${randomBytes(8).toString('hex')}`;
    const opsKey = `soak-ops-${randomBytes(8).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      processes.push(
        await startAppProcess({
          mongoUri: set.uri,
          dbName,
          startTimeoutMs: 120_000,
          apiKeys: { [serviceKey]: 'service', [opsKey]: 'ops' },
          env: { RATE_LIMITS: 'off' },
        }),
      );
    }
    const clientFor = (proc: AppProcess, key: string) =>
      createClient({
        url: proc.url,
        apiKey: key,
        fetch: answers.fetch,
        webSocketImpl: answers.WebSocket,
        retry: { maxAttempts: 8, maxElapsedMs: 10_000, maxDelayMs: 2_000 },
      });
    for (const proc of processes) clients.push(clientFor(proc, serviceKey));
    const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `soak-${i}`);
    for (const accountId of accounts) {
      await clients[0]!.openAccount({ accountId, currency: 'EUR' });
      await clients[0]!.deposit({ accountId, amount: OPENING_BALANCE, requestId: `${dbName}-open-${accountId}` });
    }

    // 100 subscribers, ten to a socket, half on each process: each counts its entries and checks
    // that every account's versions only go up (no entry twice, none out of order).
    const subscriberClients = Array.from({ length: Math.ceil(SUBSCRIBERS / 10) }, (_, i) =>
      clientFor(processes[i % 2]!, opsKey),
    );
    otherClients.push(...subscriberClients);
    const subscribers = Array.from({ length: SUBSCRIBERS }, (_, i) => {
      const seen = {
        live: false,
        count: 0,
        resyncs: 0,
        disorder: 0,
        failed: undefined as string | undefined,
        last: new Map<string, number>(),
      };
      void (async () => {
        for await (const event of subscriberClients[Math.floor(i / 10)]!.subscribe.ledgerEntryAdded({})) {
          if (event.__typename === 'ResyncRequired') seen.resyncs += 1;
          else if (event.__typename === 'LedgerEntryAdded') {
            const version = Number(event.versionAfter);
            if (event.requestId.includes('-open-') || event.requestId.startsWith(`${dbName}-marker`)) {
              seen.live = true;
              seen.last.set(event.accountId, version);
              continue;
            }
            seen.count += 1;
            if ((seen.last.get(event.accountId) ?? 0) >= version) seen.disorder += 1;
            seen.last.set(event.accountId, version);
          }
        }
      })().catch((error: unknown) => (seen.failed = String(error)));
      return seen;
    });
    // Live before the workload: markers until every subscriber has seen one (not counted).
    await waitFor(
      async () => {
        await clients[0]!.deposit({
          accountId: accounts[0]!,
          amount: 1,
          requestId: `${dbName}-marker-${randomBytes(4).toString('hex')}`,
        });
        return subscribers.every((s) => s.live) ? true : undefined;
      },
      'every subscriber live',
      120_000,
    ).catch(() => undefined);

    let workDone = 0;
    for (const [i, client] of clients.entries()) {
      workers.push(
        createWorker({
          client,
          workerId: `soak-worker-${i}`,
          kinds: ['PAYOUT', 'SOAK'],
          concurrency: 4,
          leaseSeconds: 30,
          subscribe: false,
          poll: { minMs: 100, maxMs: 1_000 },
          handler: ({ item }) => ({ done: item.id }),
          on: { completed: () => void (workDone += 1), error: ({ error }) => noteError(`worker: ${String(error)}`) },
        }),
      );
    }

    // ---- the workload, at RATE operations a second
    const acks: Ack[] = [];
    let n = 0;
    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
    const nextKind = (): Kind => {
      const roll = Math.random();
      return roll < 0.25
        ? 'deposit'
        : roll < 0.5
          ? 'withdraw'
          : roll < 0.75
            ? 'transfer'
            : roll < 0.83
              ? 'hold'
              : roll < 0.91
                ? 'batch'
                : 'work';
    };
    const runOne = async (lane: number) => {
      const key = `${dbName}-${n++}`;
      const kind = nextKind();
      const amount = 1 + Math.floor(Math.random() * 50);
      const accountId = pick(accounts);
      let answer: Answer | undefined;
      if (kind === 'deposit')
        answer = await untilFinal(
          clients,
          lane,
          (c) => c.deposit({ accountId, amount, requestId: key }) as Promise<Answer>,
        );
      else if (kind === 'withdraw')
        answer = await untilFinal(
          clients,
          lane,
          (c) => c.withdraw({ accountId, amount, requestId: key }) as Promise<Answer>,
        );
      else if (kind === 'transfer') {
        const toAccountId = pick(accounts.filter((a) => a !== accountId));
        answer = await untilFinal(
          clients,
          lane,
          (c) => c.transfer({ fromAccountId: accountId, toAccountId, amount, requestId: key }) as Promise<Answer>,
        );
      } else if (kind === 'batch') {
        const moves = [...accounts]
          .sort(() => Math.random() - 0.5)
          .slice(0, 3)
          .map((a, i) => ({
            kind: i % 2 === 0 ? ('DEPOSIT' as const) : ('WITHDRAW' as const),
            accountId: a,
            amount,
            requestId: `${key}-b${i}`,
          }));
        answer = await untilFinal(clients, lane, (c) => c.submitMoves({ atomic: true, moves }) as Promise<Answer>);
        if (answer)
          acks.push({
            kind,
            key,
            final: answer.results?.every((r) => finalOf(r).endsWith('Success')) ? 'applied' : 'refused',
            size: moves.length,
          });
        return;
      } else if (kind === 'hold') {
        const authorized = await untilFinal(
          clients,
          lane,
          (c) =>
            c.authorizeHold({ accountId, amount, expiresInSeconds: 600, requestId: `${key}-a` }) as Promise<Answer>,
        );
        const hold =
          authorized &&
          (authorized.__typename === 'DuplicateReplayed' ? (authorized.original as Answer | null) : authorized);
        if (!hold?.hold) return;
        const capture = Math.random() < 0.6;
        answer = await untilFinal(
          clients,
          lane,
          (c) =>
            (capture
              ? c.captureHold({
                  holdId: hold.hold!.id,
                  amount: Math.max(1, Math.floor(amount / 2)),
                  requestId: `${key}-c`,
                })
              : c.voidHold({ holdId: hold.hold!.id, requestId: `${key}-c` })) as Promise<Answer>,
        );
      } else {
        answer = await untilFinal(
          clients,
          lane,
          (c) => c.createWorkItem({ kind: 'SOAK', idempotencyKey: key, payload: { n } }) as Promise<Answer>,
        );
      }
      if (answer) acks.push({ kind, key, final: finalOf(answer) });
    };
    const startedAt = Date.now();
    const endAt = startedAt + MINUTES * 60_000;
    const lanes = Array.from({ length: LANES }, async (_, lane) => {
      // Each lane starts one operation every LANES / RATE seconds (later when one takes longer).
      for (let next = Date.now() + (lane * 1000) / RATE; Date.now() < endAt && !stopping; ) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
        next += (LANES * 1000) / RATE;
        await runOne(lane);
      }
    });

    // ---- sampling
    const samples: SoakSample[] = [];
    const header = [
      't_s',
      'api0_rss_mb',
      'api1_rss_mb',
      'api0_heap_mb',
      'api1_heap_mb',
      'api0_handles',
      'api1_handles',
      'api0_loop_p99_ms',
      'api1_loop_p99_ms',
      ...[0, 1, 2].flatMap((i) => [`m${i}_rss_mb`, `m${i}_heap_mb`, `m${i}_handles`, `m${i}_loop_p99_ms`]),
      'calls',
      'p50_ms',
      'p99_ms',
      'errors',
      'oplog_window_s',
    ];
    writeFileSync(csvPath, `${header.join(',')}\n`);
    const sampleOnce = async () => {
      const metrics = await Promise.all(
        processes.map((p) =>
          fetch(p.url.replace(/\/graphql$/, '/metrics'))
            .then((r) => r.text())
            .catch(() => ''),
        ),
      );
      const statuses = await Promise.all(
        memberClients.map((c) =>
          c
            .db('admin')
            .command({ serverStatus: 1 })
            .catch(() => undefined),
        ),
      );
      const window = calls.splice(0).map((c) => c.ms);
      const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
      const sample: SoakSample = {
        t: Math.round((Date.now() - startedAt) / 100) / 10,
        apiRssMb: metrics.map((m) => mb(metric(m, 'process_resident_memory_bytes'))),
        apiHeapMb: metrics.map((m) => mb(metric(m, 'nodejs_heap_size_used_bytes'))),
        apiHandles: metrics.map((m) => metric(m, 'nodejs_active_handles_total')),
        apiLoopDelayP99Ms: metrics.map((m) => Math.round(metric(m, 'nodejs_eventloop_lag_p99_seconds') * 10_000) / 10),
        engineRssMb: set.members.map((m) => Math.round(procStatusKb(m.pid, 'VmRSS') / 102.4) / 10),
        engineHeapMb: statuses.map((s) =>
          s?.['emulatorProcess'] ? mb(Number(s['emulatorProcess'].heapUsedBytes)) : -1,
        ),
        engineHandles: set.members.map((m, i) => statuses[i]?.['emulatorProcess']?.activeHandles ?? openFds(m.pid)),
        engineLoopDelayP99Ms: statuses.map((s) =>
          s?.['emulatorProcess'] ? Math.round(Number(s['emulatorProcess'].eventLoopDelayP99Ms) * 10) / 10 : -1,
        ),
        calls: window.length,
        p50Ms: Math.round(percentile(window, 50)),
        p99Ms: Math.round(percentile(window, 99)),
        errors: errorsInWindow,
        oplogWindowSeconds: Math.round(metric(metrics[0] ?? '', 'mongodb_oplog_window_seconds')),
      };
      errorsInWindow = 0;
      samples.push(sample);
      const row = [
        sample.t,
        ...sample.apiRssMb,
        ...sample.apiHeapMb,
        ...sample.apiHandles,
        ...sample.apiLoopDelayP99Ms,
        ...[0, 1, 2].flatMap((i) => [
          sample.engineRssMb[i],
          sample.engineHeapMb[i],
          sample.engineHandles[i],
          sample.engineLoopDelayP99Ms[i],
        ]),
        sample.calls,
        sample.p50Ms,
        sample.p99Ms,
        sample.errors,
        sample.oplogWindowSeconds,
      ];
      appendFileSync(csvPath, `${row.join(',')}\n`);
      console.log(
        `[soak] ${(sample.t / 60).toFixed(1)} min: ${sample.calls} calls, p50 ${sample.p50Ms} ms, p99 ${sample.p99Ms} ms, errors ${sample.errors}; API RSS ${sample.apiRssMb.join('/')} MB, heap ${sample.apiHeapMb.join('/')} MB; members RSS ${sample.engineRssMb.join('/')} MB; oplog window ${sample.oplogWindowSeconds} s`,
      );
    };
    const sampler = setInterval(
      () => void sampleOnce().catch((error: unknown) => console.error('[soak] a sample failed:', error)),
      SAMPLE_MS,
    );
    await Promise.all(lanes);
    clearInterval(sampler);
    await sampleOnce();

    // ---- nothing lost: every acknowledged key's effect is there once, every item done, every subscriber caught up
    const db = check.db(dbName);
    const read = { readPreference: ReadPreference.primary } as const;
    const violations: string[] = [];
    const done = await waitFor(
      async () =>
        (await db.collection('workItems').countDocuments({ status: { $ne: 'DONE' } }, read)) === 0 ? true : undefined,
      'every work item DONE',
      SETTLE_MS,
    ).catch(() => false);
    if (!done)
      violations.push(
        `${await db.collection('workItems').countDocuments({ status: { $ne: 'DONE' } }, read)} work items not DONE`,
      );
    const entries = await db
      .collection('ledger_entries')
      .aggregate<{ _id: string; n: number }>([{ $group: { _id: '$requestId', n: { $sum: 1 } } }], read)
      .toArray();
    const perKey = new Map(entries.map((e) => [e._id, e.n]));
    let lost = 0;
    for (const ack of acks) {
      const applied = ack.final.endsWith('Success') || ack.final === 'applied';
      if (ack.kind === 'work') {
        if (!(await db.collection('workItems').findOne({ idempotencyKey: `client:${ack.key}` }, read))) lost += 1;
        continue;
      }
      const keys =
        ack.kind === 'batch'
          ? Array.from({ length: ack.size! }, (_, i) => `${ack.key}-b${i}`)
          : ack.kind === 'hold'
            ? [`${ack.key}-c`]
            : [ack.key];
      const want =
        !applied || (ack.kind === 'hold' && ack.final === 'VoidHoldSuccess') ? 0 : ack.kind === 'transfer' ? 2 : 1;
      for (const key of keys) {
        const got = perKey.get(key) ?? 0;
        if (got < want) lost += 1;
        if (got !== want) violations.push(`${ack.kind} ${key} (${ack.final}): ${got} entries, expected ${want}`);
      }
    }
    const accountDocs = await db.collection<{ _id: string; balance: unknown }>('accounts').find({}, read).toArray();
    const journal = await db
      .collection('ledger_entries')
      .aggregate<{ _id: string; net: number }>(
        [
          {
            $group: {
              _id: '$accountId',
              net: {
                $sum: {
                  $cond: [
                    { $in: ['$kind', ['deposit', 'transferIn']] },
                    { $toLong: '$amount' },
                    { $multiply: [-1, { $toLong: '$amount' }] },
                  ],
                },
              },
            },
          },
        ],
        read,
      )
      .toArray();
    const net = new Map(journal.map((j) => [j._id, Number(j.net)]));
    for (const account of accountDocs)
      if (Number(account.balance) !== (net.get(account._id) ?? 0))
        violations.push(
          `G2: ${account._id} balance ${Number(account.balance)} != journal ${net.get(account._id) ?? 0}`,
        );
    const owed = await db
      .collection('ledger_entries')
      .countDocuments({ requestId: { $not: /(-open-|-marker-)/ } }, read);
    await waitFor(
      () => (subscribers.every((s) => s.count >= owed || s.resyncs > 0 || s.failed) ? true : undefined),
      'every subscriber caught up',
      SETTLE_MS,
    ).catch(() => undefined);
    for (const [i, s] of subscribers.entries()) {
      if (s.failed) violations.push(`subscriber ${i} ended: ${s.failed}`);
      else if (s.resyncs === 0 && s.count !== owed)
        violations.push(`subscriber ${i} got ${s.count} of ${owed} entries`);
      if (s.disorder > 0) violations.push(`subscriber ${i}: ${s.disorder} entries twice or out of order`);
    }
    // R5, as the fault run's checker: no INTERNAL_SERVER_ERROR, no UNAVAILABLE without its 503 and Retry-After.
    violations.push(...r5Violations(answers));

    const minutesRun = ((Date.now() - startedAt) / 60_000).toFixed(1);
    const title = `Soak: ${minutesRun} min, ${RATE} ops/s, 2 API processes, 3 members (the emulator, on dbpaths), ${SUBSCRIBERS} subscribers; ${totals.calls} calls, ${acks.length} acknowledged, ${workDone} work items done by the SDK worker`;
    const verdict = judge(samples, { calls: totals.calls, errors: totals.errors, lost, violations });
    console.log(`\n${title}`);
    console.log(`load average at the end: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
    if (errorSamples.length > 0) console.log(`errors (first ${errorSamples.length}):\n  ${errorSamples.join('\n  ')}`);
    console.log(answers.line());
    console.log(verdict.lines.join('\n'));
    await plotSoak(samples, title, pngPath);
    console.log(`\nwritten: ${csvPath}, ${pngPath}`);
    process.exitCode = verdict.ok ? 0 : 1;
  } finally {
    stopping = true;
    await Promise.all(workers.map((w) => w.close({ timeoutMs: 2_000 }).catch(() => undefined)));
    for (const client of [...clients, ...otherClients]) await client.close().catch(() => undefined);
    for (const proc of processes) await proc.stop().catch(() => undefined);
    await check.close().catch(() => undefined);
    for (const client of memberClients) await client.close().catch(() => undefined);
    await set.stop();
    rmSync(dbpath, { recursive: true, force: true });
  }
}

await main();
