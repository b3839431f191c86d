// Abuse class "labels a client controls" (issue 41, item 3): `work_started_total{kind}` gained a
// series per distinct kind created and claimed, so a service key could add series to /metrics
// (readable by anyone) without bound. Here made-up kinds past the bound are created and claimed over HTTP:
// the kind label stays within WorkLimits.metricKindLabelsMax kinds (plus PAYOUT and `_other`), the
// kinds past the bound count under `_other`, and every claim is still counted. And /metrics (no key
// needed) runs its one aggregation over every hold at most once for a flood of scrapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERFLOW_LABEL } from '../../../src/observability/boundedLabels.ts';
import { WorkLimits } from '../../../src/work/limits.ts';
import { startTestApp, type TestApp } from '../../support/app.ts';

/**
 * Kinds made up: the bound and then some. BoundedLabels has no threshold past the bound, so ten
 * kinds over it prove what 150 over did (the file's main cost was 600 requests): every kind past
 * the first 50 counts under `_other`, and a missing bound shows 60 labels instead of 50.
 */
const FLOOD = WorkLimits.metricKindLabelsMax + 10;

/** The samples of one metric on /metrics, label value of `kind` → value. */
async function samplesByKind(app: TestApp, metric: string): Promise<Map<string, number>> {
  const text = await (await fetch(app.url.replace(/\/graphql$/, '/metrics'))).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = new RegExp(`^${metric}\\{(?:[^}]*,)?kind="([^"]*)"[^}]*\\} (\\S+)$`).exec(line);
    if (match) samples.set(match[1]!, (samples.get(match[1]!) ?? 0) + Number(match[2]));
  }
  return samples;
}

describe('metric labels from client input', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMITS: 'off' }, monitorCommands: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it(`keeps work_started_total and work_completed_total within ${WorkLimits.metricKindLabelsMax} kinds when ${FLOOD} made-up kinds are created, claimed and completed`, async () => {
    const kinds = Array.from({ length: FLOOD }, (_, i) => `flood${i}`);
    for (const kind of kinds) {
      const created = await app.gql(
        `mutation { createWorkItem(input: { kind: "${kind}", idempotencyKey: "flood-${kind}" }) { __typename } }`,
        {},
        { key: 'service' },
      );
      expect(created.data?.createWorkItem?.__typename).toBe('CreateWorkItemSuccess');
      const claimed = await app.gql(
        `mutation { claimWorkItem(input: { workerId: "flooder", kinds: ["${kind}"] }) { __typename ... on ClaimSuccess { item { id version } } } }`,
        {},
        { key: 'service' },
      );
      expect(claimed.data?.claimWorkItem?.__typename).toBe('ClaimSuccess');
      const { id, version } = claimed.data.claimWorkItem.item;
      const done = await app.gql(
        `mutation { completeWorkItem(input: { id: "${id}", workerId: "flooder", version: ${version}, outcome: DONE }) { __typename } }`,
        {},
        { key: 'service' },
      );
      expect(done.data?.completeWorkItem?.__typename).toBe('CompleteSuccess');
    }
    for (const metric of ['work_started_total', 'work_completed_total']) {
      const samples = await samplesByKind(app, metric);
      const ownLabels = [...samples.keys()].filter((label) => label !== OVERFLOW_LABEL && label !== 'PAYOUT');
      expect(ownLabels.length, metric).toBe(WorkLimits.metricKindLabelsMax);
      expect(samples.get(OVERFLOW_LABEL), metric).toBe(FLOOD - WorkLimits.metricKindLabelsMax);
      // Nothing is lost: every claim and completion is counted, under its kind or `_other`.
      expect(
        [...samples.values()].reduce((sum, value) => sum + value, 0),
        metric,
      ).toBe(FLOOD);
    }
  }, 120_000);

  it("runs the hold gauges' $group over every hold once per 5 s, not once per scrape, for a flood of 50 unauthenticated scrapes", async () => {
    // Past the reuse window of any scrape before this one.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const groups: unknown[] = [];
    const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
      if (event.commandName === 'aggregate' && event.command['aggregate'] === 'ledger_holds')
        groups.push(event.command);
    };
    app.client.on('commandStarted', listener);
    try {
      const startedMs = Date.now();
      const scrapes = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(app.url.replace(/\/graphql$/, '/metrics')).then((response) => response.text()),
        ),
      );
      expect(scrapes.every((text) => text.includes('ledger_holds'))).toBe(true);
      // One per reuse window (5 s) the flood spanned: 50 before.
      expect(groups.length).toBeGreaterThanOrEqual(1);
      expect(groups.length).toBeLessThanOrEqual(1 + Math.floor((Date.now() - startedMs) / 5_000));
    } finally {
      app.client.off('commandStarted', listener);
    }
  }, 60_000);
});
