// Metrics, one way: each feature's telemetry.ts exports `create<Feature>Telemetry(registry, ...)`,
// which registers that feature's metrics on the registry it is given through counterOn/gaugeOn/
// histogramOn below and returns them (or methods over them). No module holds a registry: the app's
// own, served at its GET /metrics, is made by src/app/createApp.ts with `createMetricsRegistry()` and handed
// to the factories there, and a test hands its own.
import {
  collectDefaultMetrics,
  Counter,
  Gauge,
  Histogram,
  Registry,
  type CounterConfiguration,
  type GaugeConfiguration,
  type HistogramConfiguration,
} from 'prom-client';

/** A registry with the process's default metrics (CPU, memory, event loop), one per app. */
export function createMetricsRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

type MetricKind<M> = abstract new (...args: never[]) => M;

/**
 * The metric of that name already on the registry, if any: parts built on one registry (a test's
 * own, or a feature's telemetry made twice) share its series instead of failing to register.
 */
function registered<M>(registry: Registry, name: string, kind: MetricKind<M>): M | undefined {
  const metric = registry.getSingleMetric(name);
  if (metric === undefined) return undefined;
  if (!(metric instanceof kind)) throw new Error(`metric ${name} is already registered as another type`);
  return metric;
}

export function counterOn<L extends string>(
  registry: Registry,
  config: Omit<CounterConfiguration<L>, 'registers'>,
): Counter<L> {
  return registered<Counter<L>>(registry, config.name, Counter) ?? new Counter({ ...config, registers: [registry] });
}

export function gaugeOn<L extends string>(
  registry: Registry,
  config: Omit<GaugeConfiguration<L>, 'registers'>,
): Gauge<L> {
  return registered<Gauge<L>>(registry, config.name, Gauge) ?? new Gauge({ ...config, registers: [registry] });
}

export function histogramOn<L extends string>(
  registry: Registry,
  config: Omit<HistogramConfiguration<L>, 'registers'>,
): Histogram<L> {
  return (
    registered<Histogram<L>>(registry, config.name, Histogram) ?? new Histogram({ ...config, registers: [registry] })
  );
}
