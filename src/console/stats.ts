// The polled panels: the queue by status and kind with claim conflicts per minute, the payout
// projection's lease and lag, moves per minute by result, and each live feed's subscribers and
// state. Rates come from counters' growth between two polls; beside each rate chart stays what the
// process has counted since it started, so what happened before the page opened still shows.
import type { Result } from '@precondition/sdk';
import { TimeChart, seriesColor } from './charts.ts';
import { $, cell, labelled, tbody, time } from './dom.ts';
import type { Session } from './session.ts';

type Outcome = Result<'moveOutcomes'>[number];
type Feed = Result<'liveFeeds'>[number];

/**
 * The ledger mutations that move or reserve money, as `moveOutcomes` names them; a batch's moves
 * are counted one by one under their own kind (and the batch itself as `submitMoves`, left out).
 */
const MOVE_OPERATIONS = new Set(['deposit', 'withdraw', 'transfer', 'authorizeHold', 'captureHold', 'voidHold']);
/** The lines of the moves chart, in the order of their colours. */
const RESULT_CLASSES = ['applied', 'refused', 'replayed', 'transient'] as const;
type ResultClass = (typeof RESULT_CLASSES)[number];
/** A feed's status in one word for its legend, when its stream is not up (OPEN: its gauge says down). */
const FEED_STATE_WORDS: Record<string, string> = {
  OPEN: 'down',
  REOPENING: 'reopening',
  NEW: 'starting',
  STOPPED: 'stopped',
};
const MS_PER_MINUTE = 60_000;

/** A union member's class: every member that is not a success, a replay or undecided is a refusal. */
function resultClass(outcome: string): ResultClass {
  if (outcome.endsWith('Success')) return 'applied';
  if (outcome === 'DuplicateReplayed') return 'replayed';
  if (outcome === 'RequestInProgress' || outcome === 'OutcomeUnknown') return 'transient';
  return 'refused';
}

/** A counter read at a time, to make a rate of with the next reading. */
interface Reading<T> {
  value: T;
  at: number;
}

/** The legend of a chart of several lines: each line's latest value in words, and as data (data-now, data-highest). */
function drawLegend(
  id: string,
  names: readonly string[],
  values: (name: string) => number[],
  describe: (name: string, now: number, highest: number, item: HTMLLIElement) => Array<string | Node>,
): void {
  const legend = $(`${id}-legend`);
  names.forEach((name, i) => {
    let item = legend.querySelector<HTMLLIElement>(`li[data-series="${CSS.escape(name)}"]`);
    if (!item) {
      item = document.createElement('li');
      item.dataset['series'] = name;
      legend.append(item);
    }
    const series = values(name);
    const now = series.at(-1) ?? 0;
    const highest = Math.max(0, ...series);
    item.dataset['now'] = String(now);
    item.dataset['highest'] = String(highest);
    const swatch = document.createElement('span');
    swatch.className = 'swatch';
    swatch.style.background = seriesColor(i);
    swatch.setAttribute('aria-hidden', 'true');
    item.replaceChildren(swatch, ...describe(name, now, highest, item));
  });
}

/** "now 3.0, highest 7.5" (or "now 12 s, highest 20 s") under a one-line chart; a highest of nothing reads "0". */
function nowAndHighest(id: string, values: readonly number[], decimals: number, suffix = ''): void {
  const last = values.at(-1);
  const highest = Math.max(0, ...values);
  const highestText = highest < 1e-6 ? '0' : highest.toFixed(decimals);
  $(`${id}-now`).textContent =
    last === undefined ? '' : `now ${last.toFixed(decimals)}${suffix}, highest ${highestText}${suffix}`;
}

export interface StatsPanel {
  refresh(): Promise<void>;
}

export function createStatsPanel(session: Session): StatsPanel {
  const charts = {
    conflicts: new TimeChart('conflicts-chart', {
      axisTitle: 'lost claims/min',
      format: (value) => `${value.toFixed(1)}/min`,
    }),
    lag: new TimeChart('lag-chart', {
      axisTitle: 'lag (s)',
      format: (value) => `${value.toFixed(0)} s`,
      integer: true,
    }),
    moves: new TimeChart('moves-chart', { axisTitle: 'moves/min', format: (value) => `${value.toFixed(1)}/min` }),
    feeds: new TimeChart('feeds-chart', {
      axisTitle: 'subscribers',
      format: (value) => `${value} subscriber${value === 1 ? '' : 's'}`,
      integer: true,
    }),
  };
  let conflicts: Reading<number> | null = null;
  let moves: Reading<Record<ResultClass, number>> | null = null;

  function showQueue(stats: Result<'workQueueStats'>, now: number): void {
    tbody('queue').replaceChildren(
      ...stats.counts.map((count) => {
        const row = document.createElement('tr');
        row.append(
          cell(count.status, `status status-${count.status}`),
          cell(count.kind, 'kind'),
          cell(`${count.count}${count.capped ? '+' : ''}`, 'num'),
        );
        return labelled('queue', row);
      }),
    );
    if (conflicts && now > conflicts.at) {
      const perMinute = ((stats.conflictsSinceStart - conflicts.value) * MS_PER_MINUTE) / (now - conflicts.at);
      $('conflict-rate').textContent = perMinute.toFixed(1);
      const samples = charts.conflicts.add({ 'claims lost': perMinute });
      charts.conflicts.draw(['claims lost']);
      nowAndHighest(
        'conflicts-chart',
        samples.map((sample) => sample.values['claims lost'] ?? 0),
        1,
      );
    }
    conflicts = { value: stats.conflictsSinceStart, at: now };
    $('conflicts-total').textContent = String(stats.conflictsSinceStart);
  }

  function showProjection(projection: Result<'payoutProjectionState'>): void {
    $('projection-holder').textContent = projection.holder ?? 'nobody yet';
    $('projection-lease').textContent = projection.leaseActive
      ? `held until ${time(projection.leaseExpiresAt)}`
      : 'expired: no process is projecting';
    $('projection-lag').textContent =
      projection.lagSeconds === null ? 'no position stored yet' : `${projection.lagSeconds} s`;
    $('projection-sink').textContent =
      projection.sink === 'bullmq' ? `BullMQ queue ${projection.queueName}` : 'work items';
    if (projection.lagSeconds === null) return;
    const samples = charts.lag.add({ lag: projection.lagSeconds });
    charts.lag.draw(['lag']);
    nowAndHighest(
      'lag-chart',
      samples.map((sample) => sample.values['lag'] ?? 0),
      0,
      ' s',
    );
  }

  /** Moves per minute by result class, from the counters' growth between two polls. */
  function showMoves(outcomes: readonly Outcome[], now: number): void {
    const totals = Object.fromEntries(RESULT_CLASSES.map((name) => [name, 0])) as Record<ResultClass, number>;
    for (const { operation, outcome, count } of outcomes)
      if (MOVE_OPERATIONS.has(operation)) totals[resultClass(outcome)] += count;
    $('moves-total').textContent = String(RESULT_CLASSES.reduce((sum, name) => sum + totals[name], 0));
    $('moves-totals').textContent = RESULT_CLASSES.map((name) => `${name} ${totals[name]}`).join(', ');
    const previous = moves;
    moves = { value: totals, at: now };
    if (!previous || now <= previous.at) return;
    // A counter that went down is another process's (or a restarted one's): no rate from that pair.
    if (RESULT_CLASSES.some((name) => totals[name] < previous.value[name])) return;
    const rates = Object.fromEntries(
      RESULT_CLASSES.map((name) => [
        name,
        ((totals[name] - previous.value[name]) * MS_PER_MINUTE) / (now - previous.at),
      ]),
    );
    const samples = charts.moves.add(rates);
    charts.moves.draw(RESULT_CLASSES);
    drawLegend(
      'moves-chart',
      RESULT_CLASSES,
      (name) => samples.map((sample) => sample.values[name] ?? 0),
      (name, value, highest) => [`${name}: now ${value.toFixed(1)}/min, highest ${highest.toFixed(1)}`],
    );
  }

  /** Subscribers per feed, and each feed's state word; a stretch where a feed was down is shaded. */
  function showFeeds(feeds: readonly Feed[]): void {
    const byName = new Map(feeds.map((feed) => [feed.feed, feed]));
    const names = feeds.map((feed) => feed.feed);
    const down = feeds.filter((feed) => !feed.up).map((feed) => feed.feed);
    const samples = charts.feeds.add(Object.fromEntries(feeds.map((feed) => [feed.feed, feed.subscribers])), down);
    charts.feeds.draw(names);
    drawLegend(
      'feeds-chart',
      names,
      (name) => samples.map((sample) => sample.values[name] ?? 0),
      (name, subscribers, highest, item) => {
        const feed = byName.get(name);
        item.dataset['up'] = String(feed?.up ?? false);
        const word = document.createElement('strong');
        word.className = 'state';
        word.textContent = feed?.up
          ? 'up'
          : (FEED_STATE_WORDS[feed?.status ?? ''] ?? feed?.status.toLowerCase() ?? 'unknown');
        return [`${name}: `, word, `, ${subscribers} subscriber${subscribers === 1 ? '' : 's'} (highest ${highest})`];
      },
    );
    const downSince = samples.filter((sample) => sample.down.length > 0);
    $('feeds-chart-down').textContent =
      downSince.length === 0
        ? ''
        : `Down in the last 3 minutes: ${[...new Set(downSince.flatMap((sample) => sample.down))].join(', ')} (shaded).`;
  }

  return {
    async refresh() {
      const [stats, projection, outcomes, feeds] = await Promise.all([
        session.client.workQueueStats(),
        session.client.payoutProjectionState(),
        session.client.moveOutcomes(),
        session.client.liveFeeds(),
      ]);
      const now = Date.now();
      showQueue(stats, now);
      showProjection(projection);
      showMoves(outcomes, now);
      showFeeds(feeds);
    },
  };
}
