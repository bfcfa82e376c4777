import { chmod, mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { EngineLogger } from "@z-engine/engine";

/** What `zeng` logs and exports for one run. */
export interface HostTelemetry {
  /** The engine's logger (undefined: `ZENGINE_LOG=off`). */
  readonly logger?: EngineLogger;
  /** Flushes the log and the exported spans; call once the engine has shut down. */
  flush(): Promise<void>;
}

const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;

/** The level `ZENGINE_LOG` names (`off` for none); debug with `--debug`; default `info`. */
export function logLevel(env: Env, debug: boolean) {
  if (debug) return "debug";
  const asked = env.ZENGINE_LOG?.trim().toLowerCase();
  if (asked === "off" || asked === "silent") return "off";
  return LEVELS.find((level) => level === asked) ?? "info";
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Whether the standard variables ask for OTLP export of a signal: `OTEL_TRACES_EXPORTER` /
 * `OTEL_METRICS_EXPORTER` naming `otlp` (a comma-separated list; `none` or another exporter
 * alone turns it off), or, with no exporter named, an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`
 * or the signal's own `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` / `..._METRICS_ENDPOINT`); never
 * with `OTEL_SDK_DISABLED=true`.
 */
export function otlpWanted(env: Env, signal: "traces" | "metrics" = "traces"): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const named = signal === "traces" ? env.OTEL_TRACES_EXPORTER : env.OTEL_METRICS_EXPORTER;
  const exporters = named?.split(",").map((e) => e.trim().toLowerCase());
  if (exporters) return exporters.includes("otlp");
  const own =
    signal === "traces"
      ? env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
      : env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || own);
}

/** A positive whole number of milliseconds from `value`, else `fallback`. */
function millis(value: string | undefined, fallback: number): number {
  const n = Number(value?.trim());
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

async function startLogger(dataDir: string, level: string, toStderr: boolean) {
  const { default: pino } = await import("pino");
  if (toStderr) {
    const destination = pino.destination({ fd: 2, sync: true });
    return { logger: pino({ level }, destination), flush: () => destination.flushSync() };
  }
  const folder = join(dataDir, "logs");
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, "zeng.log");
  const destination = pino.destination({ dest: file, sync: true, mode: 0o600 });
  // A file made before (or by another umask) is made private too.
  await chmod(file, 0o600);
  return { logger: pino({ level }, destination), flush: () => destination.flushSync() };
}

/**
 * Registers an OTLP/HTTP span exporter as the global tracer provider. The SDK and exporter
 * are loaded only here, so a run that exports nothing does not load them.
 */
async function startOtlp(): Promise<() => Promise<void>> {
  const [{ trace }, sdk, { OTLPTraceExporter }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
  ]);
  const provider = new sdk.BasicTracerProvider({
    spanProcessors: [new sdk.BatchSpanProcessor(new OTLPTraceExporter())],
  });
  trace.setGlobalTracerProvider(provider);
  return () => provider.shutdown();
}

/**
 * Registers an OTLP/HTTP metric exporter as the global meter provider, read every
 * `OTEL_METRIC_EXPORT_INTERVAL` ms (default 60000, as the SDK's); the exporter reads its
 * endpoint, headers and temporality from the `OTEL_*` variables. The returned stop collects
 * and exports once more, so a run shorter than the interval still reports. Loaded only here.
 */
async function startOtlpMetrics(env: Env): Promise<() => Promise<void>> {
  const [{ metrics }, sdk, { OTLPMetricExporter }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-metrics"),
    import("@opentelemetry/exporter-metrics-otlp-http"),
  ]);
  const interval = millis(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000);
  const reader = new sdk.PeriodicExportingMetricReader({
    exporter: new OTLPMetricExporter(),
    exportIntervalMillis: interval,
    exportTimeoutMillis: Math.min(interval, millis(env.OTEL_METRIC_EXPORT_TIMEOUT, 30_000)),
  });
  const provider = new sdk.MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  return () => provider.shutdown();
}

/**
 * `zeng`'s logs and OTLP export: pino to `<dataDir>/logs/zeng.log` (0600) at `info`, or to
 * stderr at `debug` with `--debug` / `ZENGINE_LOG=debug`; OTLP/HTTP export of spans and of
 * metrics, each when the `OTEL_*` variables ask for it (see {@link otlpWanted}; the exporters
 * read their endpoints and headers from them). `flush` ends both exports with a last export.
 * `stderr: false` (the terminal UI, which owns the screen) keeps a debug log in the file.
 */
export async function startHostTelemetry(
  env: Env,
  dataDir: string,
  debugFlag: boolean,
  { stderr = true }: { readonly stderr?: boolean } = {},
): Promise<HostTelemetry> {
  const level = logLevel(env, debugFlag);
  const toStderr = stderr && (debugFlag || level === "debug" || level === "trace");
  const [log, stopSpans, stopMetrics] = await Promise.all([
    // A log that cannot be opened, or an exporter that cannot load, costs the run nothing.
    level === "off" ? undefined : startLogger(dataDir, level, toStderr).catch(() => undefined),
    otlpWanted(env, "traces") ? startOtlp().catch(() => undefined) : undefined,
    otlpWanted(env, "metrics") ? startOtlpMetrics(env).catch(() => undefined) : undefined,
  ]);
  return {
    ...(log ? { logger: log.logger } : {}),
    flush: async () => {
      await Promise.all([stopSpans?.().catch(() => {}), stopMetrics?.().catch(() => {})]);
      log?.flush();
    },
  };
}
