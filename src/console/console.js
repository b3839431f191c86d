// The ops console: plain ES modules, no build step, no third-party code, nothing fetched from
// elsewhere than this API. Queries go over HTTP (/graphql); live updates over graphql-ws
// (protocol `graphql-transport-ws`, spoken here directly) and resume from the last cursor seen.
const KEY_STORAGE = 'precondition.apiKey';
/** Rows kept in the live transitions table; older ones fall off so the page stays fast. */
const TRANSITIONS_MAX = 200;
const POLL_INTERVAL_MS = 3_000;
const RECONNECT_BACKOFF_MS = [250, 500, 1_000, 2_000, 5_000];
const GRAPHQL_PATH = '/graphql';

/** Samples kept per chart: at one per poll (3 s), the last 3 minutes. */
const CHART_SAMPLES_MAX = 60;

const $ = (id) => document.getElementById(id);
const state = { key: null, viewer: null, client: null, timers: [], conflicts: null, moves: null, failedRefresh: null, account: null, charts: { conflicts: [], lag: [], moves: [], feeds: [] } };

/**
 * The ledger mutations that move or reserve money, as `moveOutcomes` names them; a batch's moves
 * are counted one by one under their own kind (and the batch itself as `submitMoves`, left out).
 */
const MOVE_OPERATIONS = new Set(['deposit', 'withdraw', 'transfer', 'authorizeHold', 'captureHold', 'voidHold']);
/** The lines of the moves chart, in the order of their colours. */
const RESULT_CLASSES = ['applied', 'refused', 'replayed', 'transient'];
/** A union member's class: every member that is not a success, a replay or undecided is a refusal. */
function resultClass(outcome) {
  if (outcome.endsWith('Success')) return 'applied';
  if (outcome === 'DuplicateReplayed') return 'replayed';
  if (outcome === 'RequestInProgress' || outcome === 'OutcomeUnknown') return 'transient';
  return 'refused';
}
/** A feed's status in one word for its legend, when its stream is not up (OPEN: its gauge says down). */
const FEED_STATE_WORDS = { OPEN: 'down', REOPENING: 'reopening', NEW: 'starting', STOPPED: 'stopped' };

// ---- HTTP ----------------------------------------------------------------------------------

async function gql(query, variables = {}) {
  const response = await fetch(GRAPHQL_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${state.key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors?.length) throw new Error(body.errors.map((error) => error.message).join('; '));
  return body.data;
}

// ---- graphql-ws ----------------------------------------------------------------------------

/** One socket for every subscription; each resubscribes `after` its last cursor when the socket comes back. */
class LiveClient {
  constructor(key, onStatus) {
    this.key = key;
    this.onStatus = onStatus;
    this.subscriptions = new Map();
    this.nextId = 1;
    this.failures = 0;
    this.held = false;
    this.closed = false;
    this.socket = null;
    this.everConnected = false;
    this.connect();
  }

  connect() {
    // One socket at a time: a reconnect timer firing after `resume()` must not open a second one.
    if (this.closed || this.held || this.socket) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${GRAPHQL_PATH}`;
    const socket = new WebSocket(url, 'graphql-transport-ws');
    this.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${this.key}` } }));
    socket.onmessage = (message) => this.receive(JSON.parse(message.data));
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === 4403 || event.code === 4401) return this.onStatus('refused', `live updates refused (${event.code})`);
      this.onStatus('disconnected', 'connection lost; reconnecting…');
      const delay = RECONNECT_BACKOFF_MS[Math.min(this.failures++, RECONNECT_BACKOFF_MS.length - 1)];
      setTimeout(() => this.connect(), delay);
    };
  }

  receive(message) {
    if (message.type === 'connection_ack') {
      this.failures = 0;
      this.onStatus('connected', this.everConnected ? 'reconnected; resumed after the last event shown' : 'live');
      this.everConnected = true;
      for (const [id, sub] of this.subscriptions) this.start(id, sub);
    } else if (message.type === 'ping') {
      this.socket?.send(JSON.stringify({ type: 'pong' }));
    } else if (message.type === 'next') {
      const sub = this.subscriptions.get(message.id);
      const event = message.payload?.data && Object.values(message.payload.data)[0];
      if (sub && event) {
        if (event.cursor) sub.after = event.cursor;
        sub.onEvent(event);
      }
      if (sub && message.payload?.errors) showNotice(message.payload.errors.map((error) => error.message).join('; '));
    } else if (message.type === 'error') {
      showNotice(`subscription refused: ${message.payload?.map?.((error) => error.message).join('; ') ?? 'error'}`);
    } else if (message.type === 'complete') {
      // The server ended it (e.g. SLOW_SUBSCRIBER): follow on from the last cursor.
      const sub = this.subscriptions.get(message.id);
      if (sub) this.start(message.id, sub);
    }
  }

  subscribe(query, variables, onEvent) {
    const id = String(this.nextId++);
    const sub = { query, variables, onEvent, after: null };
    this.subscriptions.set(id, sub);
    this.start(id, sub);
    return () => {
      this.subscriptions.delete(id);
      if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ id, type: 'complete' }));
    };
  }

  start(id, sub) {
    if (this.socket?.readyState !== WebSocket.OPEN || !this.everConnected) return;
    const variables = { ...sub.variables, after: sub.after };
    this.socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: sub.query, variables } }));
  }

  /** Drops the socket as a network failure would; with `hold`, stays down until `resume()`. */
  drop({ hold = false } = {}) {
    this.held = hold;
    this.socket?.close(4000, 'dropped');
  }

  resume() {
    this.held = false;
    if (!this.socket) this.connect();
  }

  close() {
    this.closed = true;
    this.socket?.close(1000, 'signed out');
  }
}

// ---- rendering -----------------------------------------------------------------------------

// Money in its currency's units: the API gives integer minor units (cents for EUR, yen for JPY);
// the currency's own number of fraction digits (Intl) says where the point goes. The digits are
// moved as text, not divided as a float, so a large amount stays exact.
const moneyFormats = new Map();
function moneyFormat(currency) {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      format = null; // not an ISO 4217 code: shown as minor units with the code
    }
    moneyFormats.set(currency, format);
  }
  return format;
}

function money(minor, currency) {
  const format = moneyFormat(currency);
  if (!format) return `${minor} ${currency} (minor units)`;
  const digits = format.resolvedOptions().maximumFractionDigits;
  const text = String(minor);
  const negative = text.startsWith('-');
  const whole = (negative ? text.slice(1) : text).padStart(digits + 1, '0');
  const decimal = digits === 0 ? whole : `${whole.slice(0, -digits)}.${whole.slice(-digits)}`;
  return format.format(`${negative ? '-' : ''}${decimal}`);
}

// A chart over time: one polyline of the last samples, scaled to the largest, in an inline SVG
// (no library). Its title and the last value are text, so a screen reader and a test read them.
function drawChart(id, samples, unit) {
  const svg = $(id);
  const width = 300;
  const height = 60;
  const max = Math.max(1e-9, ...samples.map((sample) => sample.value));
  const first = samples[0]?.at ?? 0;
  const span = Math.max(1, (samples.at(-1)?.at ?? 0) - first);
  const points = samples.map((sample) => `${(((sample.at - first) / span) * width).toFixed(1)},${(height - 2 - (sample.value / max) * (height - 4)).toFixed(1)}`);
  const line = svg.querySelector('polyline');
  line.setAttribute('points', points.join(' '));
  svg.dataset.points = String(samples.length);
  const last = samples.at(-1);
  $(`${id}-now`).textContent = last ? `now ${last.value.toFixed(unit === 's' ? 0 : 1)}${unit === 's' ? ' s' : ''}, highest ${max < 1e-6 ? 0 : max.toFixed(unit === 's' ? 0 : 1)}${unit === 's' ? ' s' : ''}` : '';
}

// A chart of several lines over time (one per name) on one scale, the largest value of any. Each
// line's colour is its legend swatch's; the legend says each line's latest value in words, and
// carries it as data (data-now, data-highest) for tests. Returns where a sample sits across.
function drawLines(id, samples, names, describe) {
  const svg = $(id);
  const width = 300;
  const height = 60;
  const max = Math.max(1e-9, ...samples.flatMap((sample) => names.map((name) => sample.values[name] ?? 0)));
  const first = samples[0]?.at ?? 0;
  const span = Math.max(1, (samples.at(-1)?.at ?? 0) - first);
  const x = (sample) => ((sample.at - first) / span) * width;
  const legend = $(`${id}-legend`);
  names.forEach((name, i) => {
    const color = `series-${i % 6}`;
    let line = svg.querySelector(`polyline[data-series="${CSS.escape(name)}"]`);
    if (!line) {
      line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
      line.dataset.series = name;
      line.setAttribute('class', color);
      svg.append(line);
    }
    const values = samples.map((sample) => sample.values[name] ?? 0);
    line.setAttribute('points', samples.map((sample, j) => `${x(sample).toFixed(1)},${(height - 2 - (values[j] / max) * (height - 4)).toFixed(1)}`).join(' '));
    let item = legend.querySelector(`li[data-series="${CSS.escape(name)}"]`);
    if (!item) {
      item = document.createElement('li');
      item.dataset.series = name;
      legend.append(item);
    }
    const now = values.at(-1) ?? 0;
    const highest = Math.max(0, ...values);
    item.dataset.now = String(now);
    item.dataset.highest = String(highest);
    const swatch = document.createElement('span');
    swatch.className = `swatch ${color}`;
    swatch.setAttribute('aria-hidden', 'true');
    item.replaceChildren(swatch, ...describe(name, now, highest, item));
  });
  svg.dataset.points = String(samples.length);
  return x;
}

/** Moves per minute by result class, from the counters' growth between two polls. */
function chartMoves(outcomes, now) {
  const totals = Object.fromEntries(RESULT_CLASSES.map((name) => [name, 0]));
  for (const { operation, outcome, count } of outcomes) if (MOVE_OPERATIONS.has(operation)) totals[resultClass(outcome)] += count;
  // Beside the rate (since the page opened), what the process has answered since it started:
  // moves made before the page opened, or between two polls long ago, still show.
  $('moves-total').textContent = String(RESULT_CLASSES.reduce((sum, name) => sum + totals[name], 0));
  $('moves-totals').textContent = RESULT_CLASSES.map((name) => `${name} ${totals[name]}`).join(', ');
  const previous = state.moves;
  state.moves = { totals, at: now };
  if (!previous || now <= previous.at) return;
  // A counter that went down is another process's (or a restarted one's): no rate from that pair.
  if (RESULT_CLASSES.some((name) => totals[name] < previous.totals[name])) return;
  const values = Object.fromEntries(RESULT_CLASSES.map((name) => [name, ((totals[name] - previous.totals[name]) * 60_000) / (now - previous.at)]));
  const samples = addSample('moves', values);
  drawLines('moves-chart', samples, RESULT_CLASSES, (name, value, highest) => [`${name}: now ${value.toFixed(1)}/min, highest ${highest.toFixed(1)}`]);
}

/** Subscribers per feed, and each feed's state word; a stretch where a feed was down is shaded. */
function chartFeeds(feeds) {
  const byName = new Map(feeds.map((feed) => [feed.feed, feed]));
  const samples = addSample('feeds', Object.fromEntries(feeds.map((feed) => [feed.feed, feed.subscribers])));
  samples.at(-1).down = feeds.filter((feed) => !feed.up).map((feed) => feed.feed);
  const x = drawLines('feeds-chart', samples, feeds.map((feed) => feed.feed), (name, subscribers, highest, item) => {
    const feed = byName.get(name);
    item.dataset.up = String(feed.up);
    const word = document.createElement('strong');
    word.className = 'state';
    word.textContent = feed.up ? 'up' : (FEED_STATE_WORDS[feed.status] ?? feed.status.toLowerCase());
    return [`${name}: `, word, `, ${subscribers} subscriber${subscribers === 1 ? '' : 's'} (highest ${highest})`];
  });
  const bands = $('feeds-chart').querySelector('g.down');
  bands.replaceChildren(
    ...samples.flatMap((sample, i) => {
      if (!sample.down?.length) return [];
      const left = i === 0 ? x(sample) : x(samples[i - 1]);
      const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
      rect.setAttribute('x', left.toFixed(1));
      rect.setAttribute('y', '0');
      rect.setAttribute('width', Math.max(2, x(sample) - left).toFixed(1));
      rect.setAttribute('height', '60');
      const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      title.textContent = `down at ${new Date(sample.at).toLocaleTimeString()}: ${sample.down.join(', ')}`;
      rect.append(title);
      return [rect];
    }),
  );
}

function addSample(name, value) {
  const samples = state.charts[name];
  // One value (a one-line chart) or `values` by line name.
  samples.push(typeof value === 'number' ? { at: Date.now(), value } : { at: Date.now(), values: value });
  if (samples.length > CHART_SAMPLES_MAX) samples.shift();
  return samples;
}

function cell(text, className) {
  const td = document.createElement('td');
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function time(value) {
  return value ? new Date(value).toLocaleTimeString() : '';
}

/**
 * One notice at a time, with a kind: a notice about the connection or a failed refresh
 * ("Failed to fetch") is cleared once the connection is back or a refresh succeeds, so a stale
 * one never sits beside "reconnected".
 */
function showNotice(text, kind = 'info') {
  const notice = $('notice');
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = false;
}

function clearNotice(...kinds) {
  const notice = $('notice');
  if (!notice.hidden && kinds.includes(notice.dataset.kind)) {
    notice.hidden = true;
    notice.textContent = '';
  }
}

/** An id that tells items apart (an ObjectId's first 8 digits are its second: its last ones differ), and a button that copies it whole. */
const ID_SHOWN_CHARS = 10;
function idCell(id) {
  const td = document.createElement('td');
  td.className = 'id';
  const code = document.createElement('code');
  code.textContent = id.length > ID_SHOWN_CHARS ? `…${id.slice(-ID_SHOWN_CHARS)}` : id;
  code.title = id;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'copy';
  copy.textContent = 'Copy';
  copy.setAttribute('aria-label', `Copy id ${id}`);
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(id);
      showNotice(`Copied ${id}`);
    } catch {
      // No clipboard (an insecure origin): show it whole, selectable.
      showNotice(`Item id: ${id}`);
    }
  });
  const openButton = document.createElement('button');
  openButton.type = 'button';
  openButton.className = 'copy';
  openButton.textContent = 'Open';
  openButton.setAttribute('aria-label', `Open item ${id}`);
  openButton.addEventListener('click', () => openItem(id).catch((error) => showNotice(`Could not open ${id}: ${error.message}`)));
  td.append(code, copy, openButton);
  return td;
}

// A work item's page: what it is, its attempts, the withdrawal entry a payout pays out, the trace
// id of the request that made it (search it in the trace backend), and its transitions.
async function openItem(id) {
  const data = await gql(
    `query ($id: ID!) { workItem(id: $id) { id kind status version attempts maxAttempts lockedBy leaseExpiresAt idempotencyKey payload result traceparent history { from to version workerId at } } }`,
    { id },
  );
  const item = data.workItem;
  if (!item) return showNotice(`No work item ${id}`);
  const entryId = item.kind === 'PAYOUT' ? item.payload?.entryId : null;
  const facts = [
    ['Id', item.id],
    ['Kind', item.kind],
    ['Status', `${item.status} (version ${item.version})`],
    ['Attempts', `${item.attempts} of ${item.maxAttempts}`],
    ['Held by', item.lockedBy ? `${item.lockedBy} until ${time(item.leaseExpiresAt)}` : 'nobody'],
    ['Key', item.idempotencyKey],
    ...(entryId ? [['Pays out entry', entryId]] : []),
    ['Trace id', item.traceparent ? item.traceparent.split('-')[1] : 'not traced'],
    ['Payload', JSON.stringify(item.payload)],
    ['Result', JSON.stringify(item.result)],
  ];
  $('item').replaceChildren(
    ...facts.flatMap(([term, value]) => {
      const dt = document.createElement('dt');
      dt.textContent = term;
      const dd = document.createElement('dd');
      dd.textContent = value;
      dd.dataset.term = term;
      return [dt, dd];
    }),
  );
  $('item-history').tBodies[0].replaceChildren(
    ...item.history.map((step) => {
      const row = document.createElement('tr');
      row.append(cell(step.from ?? '∅', `status status-${step.from}`), cell(step.to, `status status-${step.to}`), cell(String(step.version), 'num'), cell(step.workerId ?? ''), cell(time(step.at), 'time'));
      return labelled('item-history', row);
    }),
  );
  $('item-section').hidden = false;
  $('item-section').scrollIntoView({ block: 'nearest' });
}

/** Each cell carries its column's header as `data-label`, which the narrow layout shows beside it. */
function labelled(tableId, row) {
  const headers = $(tableId).tHead.rows[0].cells;
  [...row.cells].forEach((td, i) => (td.dataset.label = headers[i]?.textContent ?? ''));
  return row;
}

function transitionRow(event) {
  const row = document.createElement('tr');
  row.dataset.itemId = event.itemId;
  row.dataset.version = String(event.version);
  row.append(
    idCell(event.itemId),
    cell(event.kind, 'kind'),
    cell(`${event.previousStatus ?? '∅'} → ${event.status}`, `status status-${event.status}`),
    cell(String(event.version), 'num'),
    cell(time(event.at), 'time'),
    event.status === 'FAILED' ? requeueButton(event.itemId, event.version) : cell(''),
  );
  return labelled('transitions', row);
}

function requeueButton(itemId, version) {
  if (!state.viewer?.mayRequeue) return cell('');
  const td = document.createElement('td');
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'requeue';
  button.textContent = 'Requeue';
  button.setAttribute('aria-label', `Requeue ${itemId}`);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const data = await gql(
        `mutation ($input: RequeueWorkItemInput!) { requeueWorkItem(input: $input) { __typename ... on ConflictLost { item { status version } } } }`,
        { input: { id: itemId, version } },
      );
      const result = data.requeueWorkItem;
      showNotice(result.__typename === 'RequeueSuccess' ? `Requeued ${itemId}` : `Not requeued (${result.__typename}): the item changed meanwhile`);
      scheduleFailedRefresh();
    } catch (error) {
      showNotice(`Requeue failed: ${error.message}`);
      button.disabled = false;
    }
  });
  td.append(button);
  return td;
}

// Events arrive faster than a screen refreshes; rows are added in one batch per frame.
const pendingTransitions = [];
let flushScheduled = false;
function addTransition(event) {
  pendingTransitions.push(event);
  if (flushScheduled) return;
  flushScheduled = true;
  setTimeout(flushTransitions, 16);
}

function flushTransitions() {
  flushScheduled = false;
  const body = $('transitions').tBodies[0];
  const fragment = document.createDocumentFragment();
  for (const event of pendingTransitions.splice(0).reverse()) {
    // A live event for a transition already shown (loaded on open) is not shown twice.
    if (body.querySelector(`tr[data-item-id="${event.itemId}"][data-version="${event.version}"]`)) continue;
    fragment.append(transitionRow(event));
  }
  body.prepend(fragment);
  while (body.rows.length > TRANSITIONS_MAX) body.deleteRow(body.rows.length - 1);
}

function onWorkItemEvent(event) {
  if (event.__typename === 'ResyncRequired') {
    showNotice(`Resync (${event.reason}): some transitions may be missing above; the queue and failed items were re-read.`);
    refreshStats();
    scheduleFailedRefresh();
    return;
  }
  addTransition(event);
  if (event.status === 'FAILED' || event.previousStatus === 'FAILED') scheduleFailedRefresh();
}

function scheduleFailedRefresh() {
  clearTimeout(state.failedRefresh);
  state.failedRefresh = setTimeout(refreshFailed, 100);
}

async function refreshFailed() {
  const data = await gql(`{ workItems(status: FAILED, first: 50) { items { id kind attempts version } totalCount totalCountCapped } }`);
  const body = $('failed').tBodies[0];
  body.replaceChildren(
    ...data.workItems.items.map((item) => {
      const row = document.createElement('tr');
      row.dataset.itemId = item.id;
      row.append(idCell(item.id), cell(item.kind, 'kind'), cell(String(item.attempts), 'num'), requeueButton(item.id, item.version));
      return labelled('failed', row);
    }),
  );
}

async function refreshSchedules() {
  const data = await gql(`{ schedules(first: 100) { name kind cron timeZone catchUp nextFireAt lastFiredPeriod lastFiredAt } }`);
  const body = $('schedules').tBodies[0];
  body.replaceChildren(
    ...data.schedules.map((schedule) => {
      const row = document.createElement('tr');
      const last = schedule.lastFiredPeriod === null ? 'not yet' : `${new Date(schedule.lastFiredPeriod).toLocaleString()} (fired ${time(schedule.lastFiredAt)})`;
      row.append(
        cell(schedule.name),
        cell(schedule.kind, 'kind'),
        cell(`${schedule.cron} ${schedule.timeZone}, catch-up ${schedule.catchUp}`),
        cell(schedule.nextFireAt === null ? '–' : new Date(schedule.nextFireAt).toLocaleString()),
        cell(last),
      );
      return labelled('schedules', row);
    }),
  );
}

async function refreshStats() {
  const data = await gql(
    `{ workQueueStats { counts { status kind count capped } conflictsSinceStart } payoutProjectionState { holder leaseActive leaseExpiresAt lagSeconds sink queueName } moveOutcomes { operation outcome count } liveFeeds { feed up status subscribers } }`,
  );
  const stats = data.workQueueStats;
  $('queue').tBodies[0].replaceChildren(
    ...stats.counts.map((count) => {
      const row = document.createElement('tr');
      row.append(cell(count.status, `status status-${count.status}`), cell(count.kind, 'kind'), cell(`${count.count}${count.capped ? '+' : ''}`, 'num'));
      return labelled('queue', row);
    }),
  );
  const now = Date.now();
  if (state.conflicts && now > state.conflicts.at) {
    const perMinute = ((stats.conflictsSinceStart - state.conflicts.total) * 60_000) / (now - state.conflicts.at);
    $('conflict-rate').textContent = perMinute.toFixed(1);
    drawChart('conflicts-chart', addSample('conflicts', perMinute), '/min');
  }
  state.conflicts = { total: stats.conflictsSinceStart, at: now };
  $('conflicts-total').textContent = String(stats.conflictsSinceStart);
  const projection = data.payoutProjectionState;
  $('projection-holder').textContent = projection.holder ?? 'nobody yet';
  $('projection-lease').textContent = projection.leaseActive ? `held until ${time(projection.leaseExpiresAt)}` : 'expired: no process is projecting';
  $('projection-lag').textContent = projection.lagSeconds === null ? 'no position stored yet' : `${projection.lagSeconds} s`;
  $('projection-sink').textContent = projection.sink === 'bullmq' ? `BullMQ queue ${projection.queueName}` : 'work items';
  if (projection.lagSeconds !== null) drawChart('lag-chart', addSample('lag', projection.lagSeconds), 's');
  chartMoves(data.moveOutcomes, now);
  chartFeeds(data.liveFeeds);
}

const ENTRY_FIELDS = 'accountId currency kind amount balanceAfter createdAt';
function entryRow(entry) {
  const row = document.createElement('tr');
  row.append(cell(entry.accountId), cell(entry.kind), cell(money(entry.amount, entry.currency), 'num'), cell(money(entry.balanceAfter, entry.currency), 'num'), cell(time(entry.createdAt), 'time'));
  return labelled('entries', row);
}

/** The transitions of the items changed last, so the table does not start empty. */
async function loadRecentTransitions() {
  const data = await gql(`{ recentWorkItems(first: 50) { id kind history { from to version at } } }`);
  const events = data.recentWorkItems
    .flatMap((item) => item.history.slice(-3).map((h) => ({ itemId: item.id, kind: item.kind, previousStatus: h.from, status: h.to, version: h.version, at: h.at })))
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : b.version - a.version))
    .slice(0, TRANSITIONS_MAX);
  const body = $('transitions').tBodies[0];
  const shown = new Set([...body.rows].map((row) => `${row.dataset.itemId}:${row.dataset.version}`));
  body.append(...events.filter((event) => !shown.has(`${event.itemId}:${event.version}`)).map(transitionRow));
}

async function refreshEntries() {
  const data = await gql(`{ ledgerEntries(first: 20) { items { ${ENTRY_FIELDS} } } }`);
  $('entries').tBodies[0].replaceChildren(...data.ledgerEntries.items.map(entryRow));
}

function onEntryEvent(event) {
  if (event.__typename === 'ResyncRequired') {
    showNotice(`Resync (${event.reason}): recent entries were re-read.`);
    return void refreshEntries();
  }
  const body = $('entries').tBodies[0];
  body.prepend(entryRow(event));
  while (body.rows.length > 20) body.deleteRow(body.rows.length - 1);
}

function showAccount() {
  const account = state.account;
  // available = balance - held: what withdrawals, transfers and new holds may still spend.
  const closed = account?.status === 'CLOSED' ? `, CLOSED since ${new Date(account.closedAt).toLocaleString()}` : '';
  $('account').textContent = account
    ? `${account.id}: ${money(account.balance, account.currency)} (version ${account.version}), held ${money(account.held, account.currency)}, available ${money(account.balance - account.held, account.currency)}${closed}`
    : 'No such account';
  $('balance-at-form').hidden = !account;
  $('balance-at-result').textContent = '';
}

/** The statement's reversal column: what a reversal reverses, or how much of a move was reversed. */
function reversalText(entry) {
  if (entry.reversalOf) return `reverses ${entry.reversalOf}`;
  return entry.reversedAmount > 0 ? `${money(entry.reversedAmount, entry.currency)} reversed` : '';
}

/** The balance as of the picked time (the picker's local time), from the journal. */
async function showBalanceAt() {
  const account = state.account;
  if (!account || !$('balance-at').value) return;
  const at = new Date($('balance-at').value);
  const data = await gql(`query ($id: ID!, $at: DateTime!) { balanceAt(accountId: $id, at: $at) }`, { id: account.id, at: at.toISOString() });
  $('balance-at-result').textContent = `Balance at ${at.toLocaleString()}: ${money(data.balanceAt ?? 0, account.currency)}`;
}

/** The account's statement: its last entries on the accountId index, newest first, signed by direction. */
async function refreshStatement(id) {
  const data = await gql(
    `query ($id: ID!) { ledgerEntries(accountId: $id, first: 20) { items { kind currency amount balanceAfter counterpartyAccountId createdAt reference reversalOf reversedAmount } } }`,
    { id },
  );
  const debit = new Set(['withdrawal', 'transferOut', 'depositReversal']);
  $('statement').tBodies[0].replaceChildren(
    ...data.ledgerEntries.items.map((entry) => {
      const row = document.createElement('tr');
      const signed = debit.has(entry.kind) ? `-${entry.amount}` : entry.amount;
      row.append(
        cell(entry.kind),
        cell(money(signed, entry.currency), 'num'),
        cell(money(entry.balanceAfter, entry.currency), 'num'),
        cell(entry.counterpartyAccountId ?? ''),
        cell(entry.reference ?? ''),
        cell(reversalText(entry)),
        cell(time(entry.createdAt), 'time'),
      );
      return labelled('statement', row);
    }),
  );
  $('statement-box').hidden = data.ledgerEntries.items.length === 0;
}

async function lookUpAccount(id) {
  state.account?.unsubscribe?.();
  state.account?.unsubscribeHolds?.();
  const data = await gql(`query ($id: ID!) { account(id: $id) { id currency balance version held status closedAt } }`, { id });
  state.account = data.account;
  showAccount();
  if (state.account) await refreshStatement(id);
  else $('statement-box').hidden = true;
  if (!state.account) return;
  if (mayOpen('holdChanged')) {
    // A hold changes `held` without a balance event: read it again on each hold transition.
    state.account.unsubscribeHolds = state.client.subscribe(
      `subscription ($id: ID!, $after: String) { holdChanged(accountId: $id, after: $after) { __typename } }`,
      { id },
      async () => {
        const now = await gql(`query ($id: ID!) { account(id: $id) { held } }`, { id });
        if (state.account?.id === id && now.account) {
          state.account.held = now.account.held;
          showAccount();
        }
      },
    );
  }
  if (!mayOpen('accountBalanceChanged')) return;
  state.account.unsubscribe = state.client.subscribe(
    `subscription ($ids: [ID!]!, $after: String) { accountBalanceChanged(accountIds: $ids, after: $after) { __typename ... on AccountBalanceChanged { cursor accountId balance version } ... on ResyncRequired { cursor reason } } }`,
    { ids: [id] },
    (event) => {
      if (event.__typename === 'ResyncRequired') return void lookUpAccount(id);
      if (state.account?.id === event.accountId && event.version > state.account.version) {
        Object.assign(state.account, { balance: event.balance, version: event.version });
        showAccount();
        refreshStatement(event.accountId).catch((error) => showNotice(`Could not refresh the statement: ${error.message}`, 'poll'));
      }
    },
  );
}

// ---- sign in / out ---------------------------------------------------------------------------

async function open(key) {
  state.key = key;
  try {
    state.viewer = (await gql('{ viewer { role maySubscribe mayRequeue subscriptions } }')).viewer;
  } catch (error) {
    state.key = null;
    sessionStorage.removeItem(KEY_STORAGE);
    $('sign-in-error').textContent = `That key was refused: ${error.message}`;
    return;
  }
  sessionStorage.setItem(KEY_STORAGE, key);
  $('sign-in').hidden = true;
  $('console').hidden = false;
  $('sign-out').hidden = false;
  $('who').textContent = `Signed in as ${state.viewer.role}`;
  $('transitions-max').textContent = String(TRANSITIONS_MAX);
  const poll = [refreshStats, refreshSchedules];
  // Only the feeds this key may open: a worker follows work items live and polls the ledger.
  const live = [];
  if (mayOpen('workItemStatusChanged') || mayOpen('ledgerEntryAdded')) {
    state.client = new LiveClient(key, (status, text) => {
      $('connection').dataset.status = status;
      const polled = mayOpen('ledgerEntryAdded') ? '' : '; ledger entries refresh every few seconds';
      $('connection').textContent = `Live updates (${live.join(', ')}): ${text}${status === 'connected' ? polled : ''}`;
      if (status === 'connected') clearNotice('connection', 'poll');
    });
    window.precondition = { drop: (options) => state.client.drop(options), resume: () => state.client.resume() };
  }
  if (mayOpen('workItemStatusChanged')) {
    live.push('work items');
    state.client.subscribe(
      `subscription ($after: String) { workItemStatusChanged(after: $after) { __typename ... on WorkItemStatusChanged { cursor itemId kind status previousStatus version at } ... on ResyncRequired { cursor reason } } }`,
      {},
      onWorkItemEvent,
    );
  } else {
    poll.push(refreshFailed);
  }
  if (mayOpen('ledgerEntryAdded')) {
    live.push('ledger entries');
    state.client.subscribe(
      `subscription ($after: String) { ledgerEntryAdded(after: $after) { __typename ... on LedgerEntryAdded { cursor ${ENTRY_FIELDS} } ... on ResyncRequired { cursor reason } } }`,
      {},
      onEntryEvent,
    );
  } else {
    poll.push(refreshEntries);
  }
  if (!state.client) $('connection').textContent = 'Live updates need a key that may subscribe; this page refreshes every few seconds.';
  await Promise.all([refreshStats(), refreshSchedules(), refreshFailed(), refreshEntries(), loadRecentTransitions()]);
  const refreshAll = () =>
    Promise.all(poll.map((refresh) => refresh())).then(
      () => clearNotice('poll'),
      (error) => showNotice(`Could not refresh: ${error.message}`, 'poll'),
    );
  state.timers.push(setInterval(refreshAll, POLL_INTERVAL_MS));
}

function mayOpen(subscription) {
  return state.viewer?.subscriptions?.includes(subscription) ?? false;
}

function signOut() {
  sessionStorage.removeItem(KEY_STORAGE);
  location.reload();
}

// A list's scrolling box ends on a row's edge, never mid-row: it is cut to the last row that fits
// under the CSS cap (24rem), measured again whenever rows change or the window is resized. Rows
// are measured in the content (scrollTop added back), so a user's scroll position is kept.
const SCROLL_CAP_REM = 24;
function fitScrollBoxes() {
  const cap = SCROLL_CAP_REM * parseFloat(getComputedStyle(document.documentElement).fontSize);
  for (const box of document.querySelectorAll('.scroll')) {
    if (box.offsetParent === null || box.scrollHeight <= cap) {
      box.style.maxHeight = '';
      continue;
    }
    const top = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
    let fits = 0;
    for (const row of box.querySelectorAll('tbody tr')) {
      const bottom = row.getBoundingClientRect().bottom - top;
      if (bottom > cap) break;
      fits = bottom;
    }
    box.style.maxHeight = `${fits}px`;
  }
}
let fitting = 0;
const fitSoon = () => {
  cancelAnimationFrame(fitting);
  fitting = requestAnimationFrame(fitScrollBoxes);
};
new MutationObserver(fitSoon).observe($('console'), { childList: true, subtree: true, attributes: true, attributeFilter: ['hidden'] });
addEventListener('resize', fitSoon);

$('sign-in').addEventListener('submit', (event) => {
  event.preventDefault();
  void open($('api-key').value.trim());
});
$('sign-out').addEventListener('click', signOut);
$('account-lookup').addEventListener('submit', (event) => {
  event.preventDefault();
  lookUpAccount($('account-id').value.trim()).catch((error) => showNotice(error.message));
});
$('balance-at-form').addEventListener('submit', (event) => {
  event.preventDefault();
  showBalanceAt().catch((error) => showNotice(error.message));
});
const saved = sessionStorage.getItem(KEY_STORAGE);
if (saved) void open(saved);
else $('api-key').focus();
