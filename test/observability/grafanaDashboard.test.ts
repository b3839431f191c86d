// The Grafana dashboard (ops/grafana) against the app it watches: every panel's PromQL parses with
// Prometheus's own PromQL grammar (@prometheus-io/lezer-promql, the parser of Prometheus's UI), and
// every metric it names is one the app exports, read from GET /metrics of a started app. A renamed
// metric or a typo in a query then fails here instead of drawing an empty panel in production.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parser } from '@prometheus-io/lezer-promql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DASHBOARD = `${ROOT}ops/grafana/dashboards/precondition.json`;
const PROVISIONING = `${ROOT}ops/grafana/provisioning/dashboards/precondition.yaml`;

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: Array<{ expr: string; refId: string }>;
  panels?: Panel[];
}

/** Grafana's range macros are not PromQL: a duration stands in for them, as Grafana substitutes one. */
function asPromql(expr: string): string {
  return expr.replace(/\$__(rate_interval|interval|range)\b/g, '5m');
}

/** The metric names an expression selects, or the syntax errors the PromQL grammar found in it. */
function metricsOf(expr: string): { metrics: string[]; errors: string[] } {
  const text = asPromql(expr);
  const tree = parser.parse(text);
  const metrics: string[] = [];
  const errors: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError)
        errors.push(`syntax error at ${node.from}: …${text.slice(Math.max(0, node.from - 20), node.to + 20)}…`);
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        if (name) metrics.push(text.slice(name.from, name.to));
        else errors.push(`a selector without a metric name at ${node.from}`);
      }
    },
  });
  return { metrics, errors };
}

/** Every sample name GET /metrics can show: each family's name, its histogram series, and the samples present. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const line of exposition.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)/.exec(line);
    if (type) {
      names.add(type[1]!);
      if (type[2] === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${type[1]}${suffix}`);
      if (type[2] === 'summary') for (const suffix of ['_sum', '_count']) names.add(`${type[1]}${suffix}`);
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]/.exec(line);
    if (sample) names.add(sample[1]!);
  }
  return names;
}

function panelsOf(panels: Panel[]): Panel[] {
  return panels.flatMap((panel) => [panel, ...panelsOf(panel.panels ?? [])]);
}

describe('the Grafana dashboard', () => {
  let app: TestApp;
  let exported: Set<string>;
  let panels: Panel[];

  beforeAll(async () => {
    app = await startTestApp({ env: { SEED_DEMO: '0' } });
    const response = await fetch(app.url.replace(/\/graphql$/, '/metrics'));
    exported = exportedNames(await response.text());
    panels = panelsOf((JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('has its sections: moves, work items and claim conflicts, payouts, feeds, the audit, rate limits, process health', () => {
    const rows = panels.filter((panel) => panel.type === 'row').map((panel) => panel.title);
    expect(rows).toEqual([
      'Moves',
      'Work items',
      'Payouts',
      'Feeds',
      'Audit',
      'Rate limits and admission',
      'Process health',
    ]);
    const titles = panels.map((panel) => panel.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Moves by result',
        'Claim conflicts',
        'Payout lag',
        'Feeds up',
        'Audit mismatches',
        'Rate limited',
        'CPU',
      ]),
    );
    expect(new Set(panels.map((panel) => panel.id)).size).toBe(panels.length);
  });

  it('parses every query with the PromQL grammar and names only metrics the app exports', () => {
    const queries = panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({ where: `${panel.title} ${target.refId}`, expr: target.expr })),
    );
    expect(queries.length).toBeGreaterThan(20);
    for (const panel of panels.filter((candidate) => candidate.type !== 'row'))
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const { where, expr } of queries) {
      const { metrics, errors } = metricsOf(expr);
      problems.push(...errors.map((error) => `${where}: ${error}`));
      if (metrics.length === 0) problems.push(`${where}: selects no metric`);
      problems.push(
        ...metrics
          .filter((metric) => !exported.has(metric))
          .map((metric) => `${where}: ${metric} is not exported by the app`),
      );
    }
    expect(problems).toEqual([]);
  });

  it('tells a broken query and an unknown metric apart from a good one (the checks can fail)', () => {
    expect(metricsOf('sum by (op) (rate(ledger_outcomes_total[$__rate_interval]))')).toEqual({
      metrics: ['ledger_outcomes_total'],
      errors: [],
    });
    expect(metricsOf('sum by (op) (rate(ledger_outcomes_total[5m])').errors).not.toEqual([]);
    expect(exported.has('ledger_outcome_total')).toBe(false);
    expect(exported.has('work_item_claim_duration_seconds_bucket')).toBe(true);
  });

  it('is provisioned by file from the folder the dashboards are mounted at', async () => {
    const yaml = await readFile(PROVISIONING, 'utf8');
    expect(yaml).toMatch(/^apiVersion: 1$/m);
    expect(yaml).toMatch(/^\s+type: file$/m);
    const path = /^\s+path: (\S+)$/m.exec(yaml)?.[1];
    expect(yaml).toContain(`ops/grafana/dashboards:${path}`);
  });
});
