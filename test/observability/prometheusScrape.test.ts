// @module-tag processes
// Proves the monitoring plugs in as the README's "Monitoring on one machine" says: Debian's
// `prometheus` (the binary .ci/run installs) started with ops/prometheus/prometheus.yml, its one
// target pointed at this test's API instead of localhost:4000 (and a 1 s scrape for a quick test),
// scrapes GET /metrics: the target is up, the alerting rules beside it are loaded, and the moves
// made meanwhile are in its answers. Saves prometheus.png, Prometheus's own graph of them (`npm
// run screenshots` writes it to docs/). Grafana cannot be had here (no Debian package), so its
// data source is checked as a file: it points at this Prometheus.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { launchChromium } from '../support/browser.ts';
import { openAccount } from '../support/callers.ts';
import { saveScreenshot } from '../support/screenshots.ts';
import { waitFor } from '../support/waiting.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONFIG = `${ROOT}ops/prometheus/prometheus.yml`;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let app: TestApp;
let dir: string;
let prometheus: ChildProcess | undefined;
let promUrl: string;
let promLog = '';
beforeAll(async () => {
  app = await startTestApp();
  dir = await mkdtemp(join(tmpdir(), 'precondition-prometheus-'));
});
afterAll(async () => {
  if (prometheus && prometheus.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function query(expr: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const answer = (await (await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`)).json()) as {
    data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  return answer.data.result;
}

describe('Prometheus with ops/prometheus/prometheus.yml', () => {
  it('passes promtool check config, scrapes the running API, loads the rules, and shows the moves', async () => {
    await run('promtool', ['check', 'config', CONFIG]);
    const config = await readFile(CONFIG, 'utf8');
    expect(config).toContain('targets: ["localhost:4000"]');
    // The rules travel with the config (rule_files is relative to it).
    await cp(`${ROOT}ops/prometheus`, join(dir, 'prometheus'), { recursive: true });
    await writeFile(
      join(dir, 'prometheus', 'prometheus.yml'),
      config.replaceAll('localhost:4000', new URL(app.url).host).replace('scrape_interval: 5s', 'scrape_interval: 1s'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      'prometheus',
      [
        `--config.file=${join(dir, 'prometheus', 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stderr!.on('data', (chunk) => (promLog += String(chunk)));

    await waitFor(
      async () => (await query('up{job="precondition"}').catch(() => []))[0]?.value[1] === '1',
      'Prometheus scraping the API',
      60_000,
    ).catch(async (error: Error) => {
      const targets = await fetch(`${promUrl}/api/v1/targets`).then((res) => res.text(), String);
      throw new Error(`${error.message}; targets: ${targets}; log: ${promLog.slice(-1000)}`);
    });
    const rules = (await (await fetch(`${promUrl}/api/v1/rules`)).json()) as {
      data: { groups: Array<{ file: string }> };
    };
    expect(new Set(rules.data.groups.map((group) => group.file.split('/').at(-1)))).toEqual(
      new Set([
        'ledger-audit.rules.yml',
        'operations.rules.yml',
        'processes.rules.yml',
        'replica-set.rules.yml',
        'work-items.rules.yml',
      ]),
    );

    // Moves over a few scrapes, so the graph has a slope.
    const before = Number((await query('sum(ledger_outcomes_total{op="deposit"})'))[0]?.value[1] ?? 0);
    await openAccount(app, 'prom-acct');
    for (let round = 0; round < 6; round++) {
      for (let n = 0; n < 5; n++)
        await app.gql(
          `mutation { deposit(input: { accountId: "prom-acct", amount: 100, requestId: "prom-${round}-${n}" }) { __typename } }`,
        );
      const scraped = (await query('sum(ledger_outcomes_total{op="deposit"})'))[0]?.value[1];
      await waitFor(
        async () => (await query('sum(ledger_outcomes_total{op="deposit"})'))[0]?.value[1] !== scraped,
        'a scrape after the deposits',
        20_000,
      );
    }
    expect(Number((await query('sum(ledger_outcomes_total{op="deposit"})'))[0]?.value[1]) - before).toBe(30);

    // What a user sees: Prometheus's own graph (Debian ships its classic UI).
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const expr = encodeURIComponent('sum by (op, outcome) (ledger_outcomes_total)');
      await page.goto(`${promUrl}/classic/graph?g0.expr=${expr}&g0.tab=0&g0.range_input=30s`);
      await page.waitForSelector('.graph_area svg path', { timeout: 30_000 });
      await saveScreenshot(page, 'prometheus.png');
    } finally {
      await browser.close();
    }
  }, 180_000);

  it("Grafana's provisioned data source points at that Prometheus", async () => {
    const datasource = await readFile(`${ROOT}ops/grafana/provisioning/datasources/prometheus.yaml`, 'utf8');
    expect(datasource).toMatch(/^\s+url: http:\/\/localhost:9090$/m);
    // Prometheus's default listen address, which the README's command keeps.
    const { stdout, stderr } = await run('prometheus', ['--help']);
    expect(`${stdout}${stderr}`).toMatch(/--web\.listen-address="0\.0\.0\.0:9090"/);
  });
});
