import type { Metric, Registry } from 'prom-client';

/** A sample as prom-client's registry reads one from a metric's `get()`. */
interface Sample {
  labels: Record<string, string | number>;
  value: number;
  /** A histogram's `_bucket`, `_sum` and `_count`. */
  metricName?: string;
}

/** Upper bounds of the latency histogram's buckets, in seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Latency {
  /** Observations at or below each bound of `LATENCY_BUCKETS` and above the one before. */
  readonly buckets: number[];
  sum: number;
  count: number;
}

/** One route's tallies, by method (and status for the count). */
interface RouteSeries {
  counts: Map<string, Map<number, { value: number }>>;
  latencies: Map<string, Latency>;
}

/**
 * `purser_http_requests_total` (by route, method and status) and
 * `purser_http_request_duration_seconds` (by route and method), as prom-client's counter and
 * histogram would expose them, tallied in plain numbers: prom-client checks and hashes the labels
 * of every `inc` and `observe`, a cost every request paid. The series are read at scrape time.
 */
export class HttpMetrics {
  private readonly routes = new Map<string, RouteSeries>();

  constructor(registry: Registry) {
    registry.registerMetric(
      this.metric('counter', 'purser_http_requests_total', 'HTTP requests by route, method and status', () =>
        this.countValues(),
      ),
    );
    registry.registerMetric(
      this.metric(
        'histogram',
        'purser_http_request_duration_seconds',
        'HTTP request latency by route and method',
        () => this.latencyValues(),
      ),
    );
  }

  /** What counts one answered request of `route` (a route's path, or `unmatched`). */
  recorder(route: string): (method: string, status: number, seconds: number) => void {
    let series = this.routes.get(route);
    if (!series) {
      series = { counts: new Map(), latencies: new Map() };
      this.routes.set(route, series);
    }
    const { counts, latencies } = series;
    return (method, status, seconds) => {
      let byStatus = counts.get(method);
      if (!byStatus) {
        byStatus = new Map();
        counts.set(method, byStatus);
      }
      const count = byStatus.get(status);
      if (count) count.value++;
      else byStatus.set(status, { value: 1 });
      let latency = latencies.get(method);
      if (!latency) {
        latency = { buckets: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 };
        latencies.set(method, latency);
      }
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        if (seconds <= (LATENCY_BUCKETS[i] as number)) {
          latency.buckets[i] = (latency.buckets[i] as number) + 1;
          break;
        }
      }
      latency.sum += seconds;
      latency.count++;
    };
  }

  private reset(): void {
    for (const series of this.routes.values()) {
      series.counts.clear();
      series.latencies.clear();
    }
  }

  private countValues(): Sample[] {
    const values: Sample[] = [];
    for (const [route, { counts }] of this.routes)
      for (const [method, byStatus] of counts)
        for (const [status, { value }] of byStatus)
          values.push({ labels: { route, method, status: String(status) }, value });
    return values;
  }

  private latencyValues(): Sample[] {
    const name = 'purser_http_request_duration_seconds';
    const values: Sample[] = [];
    for (const [route, { latencies }] of this.routes)
      for (const [method, latency] of latencies) {
        let below = 0;
        LATENCY_BUCKETS.forEach((le, i) => {
          below += latency.buckets[i] as number;
          values.push({ labels: { le, route, method }, value: below, metricName: `${name}_bucket` });
        });
        values.push(
          { labels: { le: '+Inf', route, method }, value: latency.count, metricName: `${name}_bucket` },
          { labels: { route, method }, value: latency.sum, metricName: `${name}_sum` },
          { labels: { route, method }, value: latency.count, metricName: `${name}_count` },
        );
      }
    return values;
  }

  /** A metric the registry reads as it reads prom-client's own (`get`, at scrape time). */
  private metric(type: 'counter' | 'histogram', name: string, help: string, values: () => Sample[]): Metric {
    const get = async () => ({ name, help, type, values: values(), aggregator: 'sum' });
    return { name, help, type, get, reset: () => this.reset() } as unknown as Metric;
  }
}
