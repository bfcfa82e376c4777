import type { EngineEvent } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { DecisionHub, MAX_SHADOW } from "./hub.js";
import type { NativeModels } from "./native.js";
import type { Sidecar } from "../sidecars/sidecar.js";
import { SEAMS } from "./seams.js";
import type { AnyUse, DecisionUse } from "./use.js";
import { USES } from "./uses.js";

const noSidecar: Sidecar = { ask: async () => undefined };
const noNative: NativeModels = { score: async () => undefined, prepare: () => {} };

/** A tool-gate use whose answer the test controls. */
function gateUse(name: string, decide: DecisionUse<"toolGate">["decide"]): DecisionUse<"toolGate"> {
  return { name, seam: "toolGate", module: "test", decide, describe: (a) => a.askReason };
}

/** A promise the test resolves, plus whether the use was started. */
function gateOpen() {
  let open: () => void = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

function hubWith(
  uses: readonly AnyUse[],
  experimental: Record<string, "on" | "shadow" | "off">,
  timeoutMs = 40,
) {
  const events: EngineEvent[] = [];
  const settings = { experimental, decisions: { timeout_ms: timeoutMs } };
  const hub = new DecisionHub({
    settings: () => settings,
    emit: (e) => events.push(e),
    sidecar: noSidecar,
    native: noNative,
    uses,
  });
  const traces = () => events.flatMap((e) => (e.type === "decisionTraced" ? [e.trace] : []));
  return { hub, events, traces };
}

const call = { toolName: "Bash", input: {}, actions: [] };

describe("the USES table", () => {
  it("has one row per feature and seam, each at one of the 13 seams, with its module", () => {
    expect(SEAMS).toHaveLength(13);
    expect(new Set(USES.map((u) => `${u.name}@${u.seam}`)).size).toBe(USES.length);
    for (const use of USES) {
      expect(SEAMS).toContain(use.seam);
      expect(use.module).toMatch(/^uses\/[a-z-]+\.ts$/);
    }
  });

  it("registers the uses of the spec's list (issue 46), at the 13 seams", () => {
    expect(USES.map((u) => u.name)).toEqual([
      "screen_request",
      "custom_rules",
      "review_call",
      "after_call_notes",
      "prefetch",
      "loop_guard",
      "stop_reminder",
      "completion_claim",
      "check_select",
      "search_rank",
      "relevance",
      "pressure_keep",
      "route",
      "ask_user",
      "turn_start",
      "custom_rules",
      "user_signal",
      "hints",
      "session_context",
      "task_view",
      "plan_suggest",
      "memory_suggest",
      "turn_tone",
      "review_suggest",
      "attention",
    ]);
    // custom_rules joins two seams: one row each.
    expect(USES).toHaveLength(25);
    expect(new Set(USES.map((u) => u.seam))).toEqual(new Set(SEAMS));
  });

  it("joins no seam with every feature off: all 13 return at once", async () => {
    const { hub, events } = hubWith(USES, {});
    for (const seam of SEAMS) expect(hub.joins(seam)).toBe(false);
    expect(events).toEqual([]);
  });
});

describe("DecisionHub", () => {
  it("returns at once from a seam no running use joins, and traces nothing", async () => {
    const use = gateUse("a", async () => ({ askReason: "x" }));
    const { hub, events } = hubWith([use], { decisions_a: "off" });
    expect(hub.joins("toolGate")).toBe(false);
    const first = hub.consult("toolGate", call);
    expect(first).toBe(
      hub.consult("stopBoundary", { answer: "", filesChanged: false, checksThisTurn: 0 }),
    );
    expect(await first).toEqual([]);
    expect(events).toEqual([]);
  });

  it("applies On advice in USES order, whatever order the uses finish in", async () => {
    const slow = gateOpen();
    const first = gateUse("first", async () => {
      await slow.opened;
      return { askReason: "first" };
    });
    const second = gateUse("second", async () => ({ askReason: "second" }));
    const order: string[] = [];
    const hub = new DecisionHub({
      settings: () => ({
        experimental: { decisions_first: "on", decisions_second: "on" },
        decisions: { timeout_ms: 1_000 },
      }),
      // "first" may finish only once "second" has been traced.
      emit: (e) => {
        if (e.type !== "decisionTraced") return;
        order.push(e.trace.use);
        if (e.trace.use === "second") slow.open();
      },
      sidecar: noSidecar,
      native: noNative,
      uses: [first, second],
    });
    expect(await hub.consult("toolGate", call)).toEqual([
      { askReason: "first" },
      { askReason: "second" },
    ]);
    expect(order).toEqual(["second", "first"]);
  });

  it("abstains for a use that fails, and for one past the shared deadline (2 x timeout_ms + 50)", async () => {
    const hang = gateUse("hang", (_input, ctx) => new Promise(() => void ctx.signal));
    const fail = gateUse("fail", async () => {
      throw new Error("model exploded");
    });
    const ok = gateUse("ok", async () => ({ askReason: "ok" }));
    const { hub, traces } = hubWith(
      [hang, fail, ok],
      { decisions_hang: "on", decisions_fail: "on", decisions_ok: "on" },
      20,
    );
    const started = performance.now();
    expect(await hub.consult("toolGate", call)).toEqual([{ askReason: "ok" }]);
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(85);
    expect(took).toBeLessThan(2_000);
    const byUse = Object.fromEntries(traces().map((t) => [t.use, t]));
    expect(byUse.hang).toMatchObject({ outcome: "timeout", applied: false });
    expect(byUse.fail).toMatchObject({
      outcome: "error",
      applied: false,
      detail: "model exploded",
    });
    expect(byUse.ok).toMatchObject({ outcome: "advice", applied: true });
  });

  it("ends the wait when the caller's signal aborts (a cancelled turn)", async () => {
    const hang = gateUse("hang", () => new Promise(() => {}));
    const { hub, traces } = hubWith([hang], { decisions_hang: "on" }, 60_000);
    const stop = new AbortController();
    const pending = hub.consult("toolGate", call, { signal: stop.signal });
    stop.abort();
    expect(await pending).toEqual([]);
    expect(traces()[0]).toMatchObject({ outcome: "timeout", applied: false });
  });

  it("runs Shadow uses detached: the seam does not wait, the advice is dropped but traced", async () => {
    const gate = gateOpen();
    const shadow = gateUse("shadow", async () => {
      await gate.opened;
      return { askReason: "would ask" };
    });
    const { hub, traces } = hubWith([shadow], { decisions_shadow: "shadow" });
    expect(await hub.consult("toolGate", call)).toEqual([]);
    expect(hub.shadowCount).toBe(1);
    gate.open();
    await hub.shadowIdle();
    expect(traces()).toEqual([
      expect.objectContaining({ use: "shadow", mode: "shadow", outcome: "advice", applied: false }),
    ]);
  });

  it("runs at most four Shadow uses at once per session; the fifth is skipped and traced", async () => {
    const gate = gateOpen();
    const shadow = gateUse("shadow", async () => {
      await gate.opened;
      return undefined;
    });
    const { hub, traces } = hubWith([shadow], { decisions_shadow: "shadow" });
    for (let i = 0; i < MAX_SHADOW + 1; i++) await hub.consult("toolGate", call);
    expect(hub.shadowCount).toBe(MAX_SHADOW);
    expect(traces()).toEqual([expect.objectContaining({ outcome: "skipped", mode: "shadow" })]);
    gate.open();
    await hub.shadowIdle();
    expect(hub.shadowCount).toBe(0);
    expect(traces().filter((t) => t.outcome === "abstain")).toHaveLength(MAX_SHADOW);
    await hub.consult("toolGate", call);
    expect(hub.shadowCount).toBe(1);
    await hub.shadowIdle();
  });

  it("starts loading the models of running uses when it first plans, and not those of Off ones", () => {
    const prepared: string[] = [];
    const native: NativeModels = {
      score: async () => undefined,
      prepare: (name) => prepared.push(name),
    };
    const withModel = (
      name: string,
      model: "credential" | "riskyCall",
    ): DecisionUse<"toolGate"> => ({
      ...gateUse(name, async () => undefined),
      prepare: (n) => n.prepare(model),
    });
    const hub = new DecisionHub({
      settings: () => ({
        experimental: { decisions_a: "shadow", decisions_b: "off" },
        decisions: { timeout_ms: 50 },
      }),
      emit: () => {},
      sidecar: noSidecar,
      native,
      uses: [withModel("a", "credential"), withModel("b", "riskyCall")],
    });
    expect(hub.joins("toolGate")).toBe(true);
    expect(prepared).toEqual(["credential"]);
  });

  it("reads the switches again when the settings change (a trust reload)", async () => {
    const use = gateUse("a", async () => ({ askReason: "x" }));
    let experimental: Record<string, "on" | "off"> = { decisions_a: "off" };
    const hub = new DecisionHub({
      settings: () => ({ experimental, decisions: { timeout_ms: 50 } }),
      emit: () => {},
      sidecar: noSidecar,
      native: noNative,
      uses: [use],
    });
    expect(hub.joins("toolGate")).toBe(false);
    experimental = { decisions_a: "on" };
    expect(hub.joins("toolGate")).toBe(true);
    expect(await hub.consult("toolGate", call)).toEqual([{ askReason: "x" }]);
  });
});
