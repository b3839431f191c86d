// Charts over time, drawn by Chart.js: a time axis (clock times), a value axis titled with its
// unit, and the value under the pointer in a tooltip. The tooltip is an element of the page (not
// pixels of the canvas), so a screen reader and a test read it; each canvas carries how many
// samples it draws (`data-points`) and how many of them had a feed down (`data-down`).
import {
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type Plugin,
  type TooltipModel,
} from 'chart.js';
import { $, clock } from './dom.ts';
import { REFRESH_MIN_MS } from './refresh.ts';

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip);

/** What a chart shows: the samples of the last 3 minutes, one per poll (every 3 s by default). */
export const CHART_WINDOW_MS = 180_000;
/** Samples kept per chart, whatever the period: the last 3 minutes at the shortest one (refresh.ts). */
export const CHART_SAMPLES_MAX = CHART_WINDOW_MS / REFRESH_MIN_MS;
/**
 * The time axis's shortest span: from the first sample kept to the latest (at most the last
 * CHART_WINDOW_MS), but never less than this, so that a page opened a moment ago
 * draws its few points apart and not the epoch's range Chart.js would pick for one point.
 */
const CHART_SPAN_MIN_MS = 30_000;
/** One colour per line, in order; a legend's swatch takes its line's. */
export const SERIES_COLORS = ['#1d7a35', '#c25e00', '#0a66d8', '#b00020', '#8a3ffc', '#5c6670'] as const;
/** A stretch where some feed was down: a light red band behind the lines. */
const DOWN_BAND_COLOR = 'rgba(176, 0, 32, 0.15)';

export interface Sample {
  /** Milliseconds since the epoch. */
  at: number;
  values: Readonly<Record<string, number>>;
  /** The lines whose source was down at this sample (a feed's change stream). */
  down: readonly string[];
}

export interface TimeChartOptions {
  /** The value axis's title, its unit included, short enough for the chart's height: "lost claims/min". */
  axisTitle: string;
  /** A value as the tooltip writes it, with its unit: "3.0/min", "12 s". */
  format: (value: number) => string;
  /** Whole numbers only on the value axis (subscribers). */
  integer?: boolean;
}

export function seriesColor(index: number): string {
  return SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
}

function timeWindow(firstMs: number, lastMs: number): { min: number; max: number } {
  return { min: Math.min(firstMs, lastMs - CHART_SPAN_MIN_MS), max: lastMs };
}

type LineChart = Chart<'line', Array<{ x: number; y: number }>, unknown>;

export class TimeChart {
  readonly #canvas: HTMLCanvasElement;
  readonly #tip: HTMLElement;
  readonly #samples: Sample[] = [];
  readonly #chart: LineChart;

  /** `id`: the canvas; `${id}-tip` is its tooltip, in the same box. */
  constructor(id: string, options: TimeChartOptions) {
    this.#canvas = $<HTMLCanvasElement>(id);
    this.#tip = $(`${id}-tip`);
    this.#chart = new Chart(this.#canvas, {
      type: 'line',
      data: { datasets: [] },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        elements: { point: { radius: 0, hitRadius: 6, hoverRadius: 3 }, line: { borderWidth: 2 } },
        scales: {
          x: {
            type: 'linear',
            ...timeWindow(Date.now(), Date.now()),
            title: { display: true, text: 'time' },
            ticks: { callback: (value) => clock(Number(value)), maxTicksLimit: 4, maxRotation: 0 },
          },
          y: {
            beginAtZero: true,
            title: { display: true, text: options.axisTitle },
            ticks: { maxTicksLimit: 4, ...(options.integer ? { precision: 0 } : {}) },
          },
        },
        plugins: {
          legend: { display: false },
          tooltip: { enabled: false, external: ({ tooltip }) => this.#showTip(tooltip, options.format) },
        },
      },
      plugins: [this.#downBands()],
    });
  }

  /** Adds a sample taken now; samples older than CHART_WINDOW_MS, or past CHART_SAMPLES_MAX, fall off. */
  add(values: Readonly<Record<string, number>>, down: readonly string[] = []): readonly Sample[] {
    const at = Date.now();
    this.#samples.push({ at, values, down });
    while (this.#samples.length > CHART_SAMPLES_MAX || (this.#samples[0]?.at ?? at) < at - CHART_WINDOW_MS)
      this.#samples.shift();
    return this.#samples;
  }

  /** Draws one line per name, in SERIES_COLORS' order. */
  draw(names: readonly string[]): void {
    this.#chart.data.datasets = names.map((name, i) => ({
      label: name,
      data: this.#samples.map((sample) => ({ x: sample.at, y: sample.values[name] ?? 0 })),
      borderColor: seriesColor(i),
      backgroundColor: seriesColor(i),
    }));
    const x = this.#chart.options.scales?.['x'];
    const now = Date.now();
    if (x) Object.assign(x, timeWindow(this.#samples[0]?.at ?? now, this.#samples.at(-1)?.at ?? now));
    this.#chart.update('none');
    this.#canvas.dataset['points'] = String(this.#samples.length);
    this.#canvas.dataset['down'] = String(this.#samples.filter((sample) => sample.down.length > 0).length);
  }

  #showTip(tooltip: TooltipModel<'line'>, format: (value: number) => string): void {
    const points = tooltip.dataPoints ?? [];
    const first = points[0];
    if (tooltip.opacity === 0 || !first) {
      this.#tip.hidden = true;
      return;
    }
    const lines = points.map((point) => `${point.dataset.label ?? ''}: ${format(point.parsed.y ?? 0)}`);
    const heading = document.createElement('strong');
    heading.textContent = clock(first.parsed.x ?? 0);
    this.#tip.replaceChildren(heading, ...lines.flatMap((line) => [document.createElement('br'), line]));
    this.#tip.hidden = false;
    // Beside the pointer, kept inside the chart's box.
    const left = Math.min(tooltip.caretX + 8, this.#canvas.clientWidth - this.#tip.offsetWidth);
    this.#tip.style.left = `${Math.max(0, left)}px`;
    this.#tip.style.top = `${Math.max(0, tooltip.caretY - this.#tip.offsetHeight - 4)}px`;
  }

  /** Shades each stretch between a sample and the one before it when some line's source was down. */
  #downBands(): Plugin<'line'> {
    return {
      id: 'downBands',
      beforeDatasetsDraw: (chart) => {
        const x = chart.scales['x'];
        if (!x) return;
        const { ctx, chartArea } = chart;
        ctx.save();
        ctx.fillStyle = DOWN_BAND_COLOR;
        this.#samples.forEach((sample, i) => {
          if (sample.down.length === 0) return;
          const left = x.getPixelForValue((this.#samples[i - 1] ?? sample).at);
          const right = x.getPixelForValue(sample.at);
          ctx.fillRect(left, chartArea.top, Math.max(2, right - left), chartArea.bottom - chartArea.top);
        });
        ctx.restore();
      },
    };
  }
}
