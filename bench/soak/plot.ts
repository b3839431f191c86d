// The soak's figure: Chart.js (from node_modules, no CDN) drawn in Debian's chromium through
// playwright-core, as the console's screenshots are, and saved as a PNG.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { launchChromium } from '../../test/support/browser.ts';
import type { SoakSample } from './verdict.ts';

const require = createRequire(import.meta.url);

interface Panel {
  title: string;
  unit: string;
  series: Array<{ label: string; values: number[] }>;
}

function panels(samples: readonly SoakSample[]): Panel[] {
  const per = (label: string, pick: (s: SoakSample) => number[]) =>
    (samples[0] ? pick(samples[0]) : []).map((_, i) => ({
      label: `${label} ${i}`,
      values: samples.map((s) => pick(s)[i] ?? Number.NaN),
    }));
  return [
    { title: 'RSS', unit: 'MB', series: [...per('API', (s) => s.apiRssMb), ...per('member', (s) => s.engineRssMb)] },
    {
      title: 'Heap used',
      unit: 'MB',
      series: [...per('API', (s) => s.apiHeapMb), ...per('member', (s) => s.engineHeapMb)],
    },
    {
      title: 'Handles',
      unit: 'count',
      series: [...per('API', (s) => s.apiHandles), ...per('member', (s) => s.engineHandles)],
    },
    {
      title: 'Event-loop delay p99',
      unit: 'ms',
      series: [...per('API', (s) => s.apiLoopDelayP99Ms), ...per('member', (s) => s.engineLoopDelayP99Ms)],
    },
    {
      title: 'Call latency',
      unit: 'ms',
      series: [
        { label: 'p50', values: samples.map((s) => s.p50Ms) },
        { label: 'p99', values: samples.map((s) => s.p99Ms) },
      ],
    },
    {
      title: 'Calls and errors per 10 s; oplog window',
      unit: 'count; s',
      series: [
        { label: 'calls', values: samples.map((s) => s.calls) },
        { label: 'errors', values: samples.map((s) => s.errors) },
        { label: 'oplog window (s)', values: samples.map((s) => s.oplogWindowSeconds) },
      ],
    },
  ];
}

/** Draws the samples into a PNG at `path`; `title` heads the figure. */
export async function plotSoak(samples: readonly SoakSample[], title: string, path: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 980 } });
    const figure = { title, minutes: samples.map((s) => Math.round((s.t / 60) * 10) / 10), panels: panels(samples) };
    await page.setContent(`<!doctype html><html><body style="margin:0;font-family:sans-serif;background:#fff">
      <h3 style="margin:8px 16px">${title.replace(/</g, '&lt;')}</h3>
      <div id="grid" style="display:grid;grid-template-columns:1fr 1fr;gap:8px;padding:0 16px"></div></body></html>`);
    // The browser build beside the package's main file (its exports name no subpath for it).
    await page.addScriptTag({ path: join(dirname(require.resolve('chart.js')), 'chart.umd.js') });
    await page.evaluate((data) => {
      // In the page: its DOM, typed as little as this needs (the project compiles without the DOM's types).
      type Element = { style: Record<string, string>; appendChild(child: Element): void };
      const page = globalThis as unknown as {
        Chart: new (canvas: Element, config: unknown) => unknown;
        document: { getElementById(id: string): Element; createElement(tag: string): Element };
      };
      const ChartJs = page.Chart;
      const document = page.document;
      const grid = document.getElementById('grid');
      for (const panel of data.panels) {
        const box = document.createElement('div');
        box.style.height = '290px';
        const canvas = document.createElement('canvas');
        box.appendChild(canvas);
        grid.appendChild(box);
        new ChartJs(canvas, {
          type: 'line',
          data: {
            labels: data.minutes,
            datasets: panel.series.map((s) => ({
              label: s.label,
              data: s.values,
              pointRadius: 0,
              borderWidth: 1.5,
              spanGaps: true,
            })),
          },
          options: {
            animation: false,
            responsive: true,
            maintainAspectRatio: false,
            plugins: {
              title: { display: true, text: `${panel.title} (${panel.unit})` },
              legend: { labels: { boxWidth: 12 } },
            },
            scales: {
              x: { title: { display: true, text: 'minutes' }, ticks: { maxTicksLimit: 13 } },
              y: { beginAtZero: true },
            },
          },
        });
      }
    }, figure);
    await page.screenshot({ path, fullPage: true });
  } finally {
    await browser.close();
  }
}
