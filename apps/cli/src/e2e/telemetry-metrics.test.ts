import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { headlessBypass, main, runPreloaded, type World, world } from "./cli.test.helpers.js";

interface OtlpPoint {
  readonly attributes?: ReadonlyArray<{ key: string; value: { stringValue?: string } }>;
  readonly asInt?: number | string;
  readonly asDouble?: number;
  readonly count?: number | string;
  readonly sum?: number;
}
interface OtlpMetric {
  readonly name: string;
  readonly sum?: { dataPoints: OtlpPoint[] };
  readonly histogram?: { dataPoints: OtlpPoint[] };
}
interface OtlpMetrics {
  readonly resourceMetrics: ReadonlyArray<{
    scopeMetrics: ReadonlyArray<{ scope: { name: string }; metrics: OtlpMetric[] }>;
  }>;
}

/** An OTLP/HTTP receiver on loopback: every request's path, content type and JSON body. */
async function otlpReceiver() {
  const received: { url: string; contentType: string; body: unknown }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({
        url: String(req.url),
        contentType: String(req.headers["content-type"]),
        body: JSON.parse(body),
      });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    paths: () => received.map((r) => r.url),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let w: World | undefined;
let receiver: Awaited<ReturnType<typeof otlpReceiver>> | undefined;
afterEach(async () => {
  await w?.dispose();
  await receiver?.close();
  w = undefined;
  receiver = undefined;
});

/** The metrics of every export received at `path`, by name. */
function metricsAt(received: { url: string; body: unknown }[], path: string) {
  const byName = new Map<string, OtlpMetric[]>();
  for (const r of received.filter((x) => x.url === path))
    for (const rm of (r.body as OtlpMetrics).resourceMetrics)
      for (const sm of rm.scopeMetrics)
        for (const m of sm.metrics) byName.set(m.name, [...(byName.get(m.name) ?? []), m]);
  return byName;
}
const value = (p: OtlpPoint) => Number(p.asDouble ?? p.asInt ?? 0);
const attr = (p: OtlpPoint, key: string) =>
  p.attributes?.find((a) => a.key === key)?.value.stringValue;

// An hour between periodic exports: whatever arrives was sent by the flush at exit.
const ONLY_AT_EXIT = { OTEL_METRIC_EXPORT_INTERVAL: "3600000" };

describe("zeng's OTLP metrics", () => {
  it("exports session, token and cost metrics over OTLP/HTTP, flushed as zeng -p exits", async () => {
    receiver = await otlpReceiver();
    w = await world({
      format: "anthropic",
      script: [main(reply.text("Done.", { usage: { input: 1200, output: 80 } }))],
    });
    const run = await w.run(["-p", "Say done.", "--output-format", "json"], {
      ...ONLY_AT_EXIT,
      OTEL_METRICS_EXPORTER: "otlp",
      OTEL_TRACES_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as {
      costUsd: number;
      usage: { input: number; output: number };
    };
    expect(receiver.paths()).toEqual(["/v1/metrics"]);
    expect(receiver.received[0]?.contentType).toContain("application/json");
    const first = receiver.received[0] as { body: OtlpMetrics };
    const scopes = first.body.resourceMetrics.flatMap((rm) => rm.scopeMetrics);
    expect(scopes.map((s) => s.scope.name)).toContain("@z-engine/engine");
    const metrics = metricsAt(receiver.received, "/v1/metrics");
    const sessions = metrics.get("zeng.session.count")?.flatMap((m) => m.sum?.dataPoints ?? []);
    expect(sessions?.map(value)).toEqual([1]);
    const tokens = metrics
      .get("gen_ai.client.token.usage")
      ?.flatMap((m) => m.histogram?.dataPoints ?? []);
    const tokenSum = (type: string) =>
      (tokens ?? [])
        .filter((p) => attr(p, "gen_ai.token.type") === type)
        .reduce((n, p) => n + Number(p.sum), 0);
    expect(tokenSum("input")).toBe(result.usage.input);
    expect(tokenSum("output")).toBe(result.usage.output);
    const cost = metrics.get("zeng.cost")?.flatMap((m) => m.sum?.dataPoints ?? []) ?? [];
    expect(result.costUsd).toBeGreaterThan(0);
    expect(cost.reduce((n, p) => n + value(p), 0)).toBeCloseTo(result.costUsd, 9);
    const turns = metrics.get("zeng.turn.duration")?.flatMap((m) => m.histogram?.dataPoints ?? []);
    expect(turns?.map((p) => attr(p, "zeng.turn.outcome"))).toEqual(["completed"]);
  });

  it("sends to OTEL_EXPORTER_OTLP_METRICS_ENDPOINT as given, and nothing with OTEL_METRICS_EXPORTER=none", async () => {
    receiver = await otlpReceiver();
    w = await world({
      format: "anthropic",
      script: [main(reply.text("Done.")), main(reply.text("Again."))],
    });
    const own = await w.run(["-p", "Say done."], {
      ...ONLY_AT_EXIT,
      OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${receiver.endpoint}/collector/metrics`,
    });
    expect(own.code, own.stderr).toBe(0);
    expect(receiver.paths()).toEqual(["/collector/metrics"]);
    expect(metricsAt(receiver.received, "/collector/metrics").has("zeng.session.count")).toBe(true);

    receiver.received.length = 0;
    const off = await w.run(["-p", "Again."], {
      OTEL_METRICS_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(off.code, off.stderr).toBe(0);
    expect(receiver.paths()).toEqual(["/v1/traces"]);
  });

  it("loads no OpenTelemetry SDK or exporter when no OTEL_* variable asks (zeng -p's start)", async () => {
    // The SDKs are externals of the bundle, loaded by import(): Node's ES module loader comes
    // with them, and nothing else in a plain headless run loads it (module-loader.test.ts).
    const watcher = `process.on("exit", () => require("node:fs").writeFileSync(process.env.ZENG_TEST_REPORT, JSON.stringify(process.moduleLoadList.includes("NativeModule internal/modules/esm/module_job"))));`;
    receiver = await otlpReceiver();
    w = await world({
      format: "anthropic",
      script: [main(reply.text("a")), main(reply.text("b"))],
    });
    const off = await runPreloaded(w, watcher, headlessBypass("one"));
    expect(off.run.code, off.run.stderr).toBe(0);
    expect(JSON.parse(off.report)).toBe(false);
    expect(receiver.received).toEqual([]);
    // The same run asking for metrics loads them (the watcher sees what it should).
    const on = await runPreloaded(w, watcher, headlessBypass("two"), {
      OTEL_METRICS_EXPORTER: "otlp",
      OTEL_TRACES_EXPORTER: "none",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(on.run.code, on.run.stderr).toBe(0);
    expect(JSON.parse(on.report)).toBe(true);
    expect(receiver.paths()).toEqual(["/v1/metrics"]);
  });
});
