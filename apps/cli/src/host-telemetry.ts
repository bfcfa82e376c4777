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
export function logLevel(env: Readonly<Record<string, string | undefined>>, debug: boolean) {
  if (debug) return "debug";
  const asked = env.ZENGINE_LOG?.trim().toLowerCase();
  if (asked === "off" || asked === "silent") return "off";
  return LEVELS.find((level) => level === asked) ?? "info";
}

/**
 * Whether the standard variables ask for OTLP trace export: `OTEL_TRACES_EXPORTER=otlp`, or an
 * OTLP endpoint with no exporter named; never with `OTEL_SDK_DISABLED=true`.
 */
export function otlpWanted(env: Readonly<Record<string, string | undefined>>): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(",").map((e) => e.trim().toLowerCase());
  if (exporters) return exporters.includes("otlp");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
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
 * `zeng`'s logs and trace export: pino to `<dataDir>/logs/zeng.log` (0600) at `info`, or to
 * stderr at `debug` with `--debug` / `ZENGINE_LOG=debug`; OTLP/HTTP export when the `OTEL_*`
 * variables ask for it (the exporter reads its endpoint and headers from them).
 * `stderr: false` (the terminal UI, which owns the screen) keeps a debug log in the file.
 */
export async function startHostTelemetry(
  env: Readonly<Record<string, string | undefined>>,
  dataDir: string,
  debugFlag: boolean,
  { stderr = true }: { readonly stderr?: boolean } = {},
): Promise<HostTelemetry> {
  const level = logLevel(env, debugFlag);
  const toStderr = stderr && (debugFlag || level === "debug" || level === "trace");
  const [log, stopExport] = await Promise.all([
    // A log that cannot be opened, or an exporter that cannot load, costs the run nothing.
    level === "off" ? undefined : startLogger(dataDir, level, toStderr).catch(() => undefined),
    otlpWanted(env) ? startOtlp().catch(() => undefined) : undefined,
  ]);
  return {
    ...(log ? { logger: log.logger } : {}),
    flush: async () => {
      await stopExport?.().catch(() => {});
      log?.flush();
    },
  };
}
