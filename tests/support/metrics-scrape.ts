/**
 * A scrape of /metrics read with a Prometheus text-format parser (parse-prometheus-text-format), not
 * with patterns of our own: what a test asserts is what Prometheus would read.
 */
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";

export type Scrape = {
  /** The families as the parser reads them (name, type, help). */
  families: MetricFamily[];
  family(name: string): MetricFamily | undefined;
  /**
   * The sum of the samples named `name` (a histogram's: `<name>_count`, `<name>_bucket`…) whose labels
   * include `labels`; undefined when the scrape has none of that name.
   */
  total(name: string, labels?: Record<string, string>): number | undefined;
  /** The values `label` takes among the samples named `name`. */
  labelValues(name: string, label: string): string[];
};

export function readScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text);
  // The parser folds a histogram's labelled series into one and drops their _count and _sum; read as
  // untyped, every line of a histogram is a sample of its own name with all its labels.
  const samples = parsePrometheusTextFormat(text.replace(/^# TYPE (\S+) histogram$/gm, "# TYPE $1 untyped"));
  const named = (name: string) => samples.filter((family) => family.name === name).flatMap((family) => family.metrics);
  return {
    families,
    family: (name) => families.find((family) => family.name === name),
    total(name, labels = {}) {
      const series = named(name);
      if (series.length === 0) return undefined;
      return series
        .filter((sample) => Object.entries(labels).every(([label, value]) => sample.labels?.[label] === value))
        .reduce((sum, sample) => sum + Number(sample.value), 0);
    },
    labelValues(name, label) {
      const values = named(name).map((sample) => sample.labels?.[label]);
      return [...new Set(values.filter((value): value is string => value !== undefined))].sort();
    },
  };
}
