import type { DecisionRuleEntry } from "@z-engine/config";
import type { Decision } from "@z-engine/policy";
import type { EngineEvent } from "@z-engine/protocol";
import { ScriptedModel, type ScriptResponse } from "@z-engine/testkit";
import { describe, expect, it } from "vitest";
import { escalateAllow } from "../gate-seam.js";
import { DecisionHub } from "../hub.js";
import { createSidecar } from "../../sidecars/sidecar.js";
import { USES } from "../uses.js";

// custom_rules (`[[decisions.rules]]`) through the hub and the real USES table, against a
// scripted decision model: it only escalates, abstains on a failure, and Shadow applies nothing.

const reply = (text: string): ScriptResponse => ({ events: [{ type: "textDelta", text }] });
const failure: ScriptResponse = { fault: { status: 529, message: "overloaded" } };

const PROD: DecisionRuleEntry = {
  name: "prod-db",
  when: "the call touches the production database",
  at: "tool_gate",
};
const RELEASE: DecisionRuleEntry = { when: "the user asks for a release", at: "turn_start" };

function hubWith(
  rules: DecisionRuleEntry[],
  responses: readonly ScriptResponse[],
  mode: "on" | "shadow" = "on",
) {
  const model = new ScriptedModel(responses);
  const events: EngineEvent[] = [];
  const notices: string[] = [];
  const settings = {
    experimental: { decisions_custom_rules: mode },
    decisions: { timeout_ms: 2_000, rules },
  };
  const hub = new DecisionHub({
    settings: () => settings,
    emit: (e) => events.push(e),
    sidecar: createSidecar(() => ({ client: model, model: "fast" })),
    native: { score: async () => undefined, prepare: () => {} },
    uses: USES,
    notice: (m) => notices.push(m),
  });
  const traces = () => events.flatMap((e) => (e.type === "decisionTraced" ? [e.trace] : []));
  return { hub, model, notices, traces };
}

const call = {
  toolName: "Bash",
  input: { command: "psql $PROD_URL -c 'drop table users'" },
  actions: [],
};
const allow: Decision = { type: "allow" };
const start = (prompt: string) => ({ prompt, mode: "ask" as const, exchanges: [], skills: [] });
const asked = (m: ScriptedModel) => JSON.stringify(m.requests[0]?.messages ?? []);

describe("custom_rules at the tool gate", () => {
  it("turns an allowed call that matches a rule into an Ask naming the rule", async () => {
    const { hub, model } = hubWith([PROD], [reply('{"matches": [1]}')]);
    const decision = escalateAllow(allow, await hub.consult("toolGate", call));
    expect(decision.type).toBe("ask");
    expect(decision).toMatchObject({ suggestedRules: [] });
    expect(decision.type === "ask" && decision.reason).toContain('"prod-db"');
    expect(asked(model)).toContain("the call touches the production database");
    expect(asked(model)).toContain("drop table users");
  });

  it("leaves a call no rule matches, and an Ask or a Deny as they are", async () => {
    const none = hubWith([PROD], [reply('{"matches": []}')]);
    expect(escalateAllow(allow, await none.hub.consult("toolGate", call))).toEqual(allow);
    const match = hubWith([PROD], [reply('{"matches": [1]}')]);
    const advice = await match.hub.consult("toolGate", call);
    expect(advice).toHaveLength(1);
    const ask: Decision = { type: "ask", reason: "policy", suggestedRules: ["Bash(psql:*)"] };
    const deny: Decision = { type: "deny", reason: "policy" };
    expect(escalateAllow(ask, advice)).toEqual(ask);
    expect(escalateAllow(deny, advice)).toEqual(deny);
  });

  it("abstains when the decision model fails or names no offered rule", async () => {
    const failing = hubWith([PROD], [failure]);
    expect(await failing.hub.consult("toolGate", call)).toEqual([]);
    expect(failing.traces().map((t) => [t.use, t.outcome])).toEqual([["custom_rules", "abstain"]]);
    const odd = hubWith([PROD], [reply('{"matches": [7]}')]);
    expect(await odd.hub.consult("toolGate", call)).toEqual([]);
  });
});

describe("custom_rules at turn start", () => {
  it("adds a reminder naming each matching rule: its remind text, else its when", async () => {
    const rules = [PROD, RELEASE, { ...RELEASE, name: "tag", remind: "tag the release" }];
    const { hub, model } = hubWith(rules, [reply('{"matches": [1, 2]}')]);
    const [advice] = await hub.consult("turnStart", start("cut the 2.0 release"));
    expect(advice?.reminders).toEqual([
      'Your rule "rule 2" applies: the user asks for a release',
      'Your rule "tag" applies: tag the release',
    ]);
    // Only the turn-start rules are offered at turn start.
    expect(asked(model)).not.toContain("production database");
  });
});

describe("custom_rules: modes and settings", () => {
  it("in Shadow asks the model but applies nothing", async () => {
    const { hub, model, traces } = hubWith([PROD], [reply('{"matches": [1]}')], "shadow");
    expect(await hub.consult("toolGate", call)).toEqual([]);
    await hub.shadowIdle();
    expect(model.requests).toHaveLength(1);
    expect(traces()).toMatchObject([{ use: "custom_rules", outcome: "advice", applied: false }]);
  });

  it("joins no seam without rules, and skips a malformed rule with one notice", async () => {
    const empty = hubWith([], []);
    expect(empty.hub.joins("toolGate") || empty.hub.joins("turnStart")).toBe(false);
    const bad: DecisionRuleEntry[] = [
      { name: "no-when", at: "tool_gate" },
      { when: "w", at: "stop" },
    ];
    const { hub, model, notices } = hubWith([...bad, PROD], [reply('{"matches": [1]}')]);
    expect(hub.joins("turnStart")).toBe(false);
    expect(hub.joins("toolGate")).toBe(true);
    expect(notices).toEqual([
      'decision rule "no-when" is skipped: it has no `when`',
      'decision rule "rule 2" is skipped: `at` must be "tool_gate" or "turn_start", not "stop"',
    ]);
    const [advice] = await hub.consult("toolGate", call);
    expect(advice?.askReason).toContain('"prod-db"');
    expect(asked(model)).not.toContain("no-when");
    expect(notices).toHaveLength(2);
  });
});
