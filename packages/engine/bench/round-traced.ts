// The round with tracing off vs on: round.ts's 200-round session, alternately with no
// OpenTelemetry SDK (the engine's spans are no-ops) and with one registered (a real
// BasicTracerProvider and MeterProvider; spans batched to an exporter that drops them, so the
// SDK's work is measured, not a network). Run: pnpm --filter @z-engine/engine bench
import { metrics, trace } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type ReadableSpan,
  type SpanExporter,
} from "@opentelemetry/sdk-trace-base";
import { oneSession, q } from "./round-session.js";

const RUNS = 5;
let exported = 0;
const dropping: SpanExporter = {
  export: (spans: ReadableSpan[], done) => {
    exported += spans.length;
    done({ code: 0 });
  },
  shutdown: async () => {},
};

async function traced(): Promise<number[]> {
  const provider = new BasicTracerProvider({
    spanProcessors: [new BatchSpanProcessor(dropping)],
  });
  const meters = new MeterProvider();
  trace.setGlobalTracerProvider(provider);
  metrics.setGlobalMeterProvider(meters);
  try {
    return await oneSession();
  } finally {
    await provider.shutdown();
    await meters.shutdown();
    trace.disable();
    metrics.disable();
  }
}

await oneSession(); // warm-up, both ways
await traced();
const off: number[] = [];
const on: number[] = [];
for (let i = 0; i < RUNS; i++) {
  off.push(
    q(
      (await oneSession()).sort((a, b) => a - b),
      0.5,
    ),
  );
  on.push(
    q(
      (await traced()).sort((a, b) => a - b),
      0.5,
    ),
  );
}
off.sort((a, b) => a - b);
on.sort((a, b) => a - b);
const base = q(off, 0.5);
const value = q(on, 0.5);
console.log(
  `workload: ${RUNS} pairs of 200-round sessions, untraced and traced, interleaved after a warm-up of each; ${exported} spans exported`,
);
console.log(`BENCH engine.round ${base.toFixed(3)} ms`);
console.log(
  `BENCH engine.round.traced ${value.toFixed(3)} ms baseline=${base.toFixed(3)} ratio=${(value / base).toFixed(2)}`,
);
