import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { reply } from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { main, type World, world } from "./cli.test.helpers.js";

interface OtlpSpan {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: ReadonlyArray<{ key: string; value: Record<string, unknown> }>;
}
interface OtlpExport {
  readonly resourceSpans: ReadonlyArray<{
    scopeSpans: ReadonlyArray<{ scope: { name: string }; spans: OtlpSpan[] }>;
  }>;
}

/** An OTLP/HTTP receiver on loopback: each request to /v1/traces, decoded from JSON. */
async function otlpReceiver() {
  const received: { contentType: string; body: OtlpExport }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      if (req.url === "/v1/traces")
        received.push({
          contentType: String(req.headers["content-type"]),
          body: JSON.parse(body) as OtlpExport,
        });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const KEY = "sk-ant-api03-cliTelemetryKey0123456789abcdefghij";
let w: World | undefined;
let receiver: Awaited<ReturnType<typeof otlpReceiver>> | undefined;
afterEach(async () => {
  await w?.dispose();
  await receiver?.close();
  w = undefined;
  receiver = undefined;
});

/** A world whose provider answers two turns, its key in the env the runs get. */
const twoTurnWorld = () =>
  world({
    format: "anthropic",
    apiKey: KEY,
    script: [main(reply.text("Done.")), main(reply.text("Again."))],
  });
const env = { ZENGINE_API_KEY: KEY };

const stringAttr = (span: OtlpSpan, key: string) =>
  span.attributes.find((a) => a.key === key)?.value.stringValue;

describe("zeng's telemetry", () => {
  it("exports the session's spans over OTLP/HTTP when OTEL_* asks", async () => {
    receiver = await otlpReceiver();
    w = await world({ format: "anthropic", script: [main(reply.text("Done."))] });
    const run = await w.run(["-p", "Say done.", "--output-format", "json"], {
      OTEL_TRACES_EXPORTER: "otlp",
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = JSON.parse(run.stdout).sessionId as string;
    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received[0]?.contentType).toContain("application/json");
    const scopes = receiver.received.flatMap((r) =>
      r.body.resourceSpans.flatMap((rs) => rs.scopeSpans),
    );
    expect(scopes.map((s) => s.scope.name)).toContain("@z-engine/engine");
    const spans = scopes.flatMap((s) => s.spans);
    const byName = (name: string) => spans.find((s) => s.name.startsWith(name)) as OtlpSpan;
    const session = byName("zeng.session");
    expect(stringAttr(session, "gen_ai.conversation.id")).toBe(sessionId);
    expect(session.parentSpanId ?? "").toBe("");
    const turn = byName("zeng.turn");
    const round = byName("zeng.round");
    const chat = byName("chat ");
    expect(turn.parentSpanId).toBe(session.spanId);
    expect(round.parentSpanId).toBe(turn.spanId);
    expect(chat.parentSpanId).toBe(round.spanId);
    expect(stringAttr(chat, "gen_ai.operation.name")).toBe("chat");
    expect(JSON.stringify(spans)).not.toContain("Say done.");
  });

  it("logs to a private file in the data folder, or to stderr with --debug", async () => {
    w = await twoTurnWorld();
    const run = await w.run(["-p", `Say done. ${KEY}`, "--output-format", "json"], env);
    expect(run.code, run.stderr).toBe(0);
    const sessionId = JSON.parse(run.stdout).sessionId as string;
    const file = join(w.home, "data", "logs", "zeng.log");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, "utf8");
    const lines = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["turn started"]));
    expect(lines.every((l) => l.sessionId === sessionId)).toBe(true);
    expect(text).not.toContain(KEY);

    const debug = await w.run(["-p", "Again.", "--debug"], env);
    expect(debug.code, debug.stderr).toBe(0);
    const debugLines = debug.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    expect(debugLines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["turn started", "model response"]),
    );
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("logs at debug with ZENGINE_LOG=debug: -p to stderr (session and turn on each line), interactive to the file", async () => {
    w = await twoTurnWorld();
    const run = await w.run(["-p", `Say done. ${KEY}`, "--output-format", "json"], {
      ...env,
      ZENGINE_LOG: "debug",
    });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = JSON.parse(run.stdout).sessionId as string;
    const lines = run.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const byMsg = (msg: string) => lines.filter((l) => l.msg === msg);
    // pino's debug level is 20: a line only a debug log has.
    expect(byMsg("model response").map((l) => l.level)).toContain(20);
    expect(lines.every((l) => l.sessionId === sessionId)).toBe(true);
    const [started] = byMsg("turn started");
    expect(typeof started?.turnId).toBe("string");
    expect(byMsg("model response").every((l) => l.turnId === started?.turnId)).toBe(true);
    expect(run.stderr).not.toContain(KEY);
    // Logs go to stderr instead of the file (the README's "Logs, traces and metrics").
    const file = join(w.home, "data", "logs", "zeng.log");
    await expect(stat(file)).rejects.toThrow();

    // Interactive zeng keeps its debug log in the file: the screen is the UI's.
    const interactive = w.spawn([], { ...env, ZENGINE_LOG: "debug" });
    interactive.child.stdin?.end("Again.\n");
    const second = await interactive.done;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('"msg"');
    const text = await readFile(file, "utf8");
    const inFile = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { msg?: string });
    expect(inFile.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["turn started", "model response"]),
    );
    expect(text).not.toContain(KEY);
  });

  it("logs interactive zeng to the data folder's file, at debug with --debug, never on the screen", async () => {
    w = await twoTurnWorld();
    const file = join(w.home, "data", "logs", "zeng.log");
    const readLines = async () =>
      (await readFile(file, "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    // Without a terminal, interactive zeng reads its prompts line by line from stdin.
    const first = w.spawn([], env);
    first.child.stdin?.end(`Say done. ${KEY}\n`);
    const run = await first.done;
    expect(run.code, run.stderr).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const lines = await readLines();
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["turn started"]));
    expect(lines.map((l) => l.msg)).not.toContain("model response"); // a debug line
    expect(new Set(lines.map((l) => l.sessionId)).size).toBe(1);
    expect(await readFile(file, "utf8")).not.toContain(KEY);

    const debug = w.spawn(["--debug"], env);
    debug.child.stdin?.end("Again.\n");
    const second = await debug.done;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toContain('"msg"');
    const after = (await readLines()).slice(lines.length);
    expect(after.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["turn started", "model response"]),
    );
  });
});
