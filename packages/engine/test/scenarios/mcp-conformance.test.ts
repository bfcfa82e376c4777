import { describe, expect, it } from "vitest";
import {
  CORE_SCENARIOS,
  clientScenarios,
  NOT_APPLICABLE,
  runScenarios,
} from "../../bench/conformance/run.js";

// The official MCP conformance suite (pinned, run on a local Node 22) against zeng's client:
// the scenarios without an authorization server and the authorization suite. All of them
// together run in about a minute here; bench/conformance/run.ts runs the same as a script.
describe("the MCP conformance suite, client scenarios (issue 41)", { timeout: 300_000 }, () => {
  it("passes every scenario that applies: the core ones and the whole authorization suite", async () => {
    const all = await clientScenarios();
    expect(all).toHaveLength(26);
    const wanted = [...CORE_SCENARIOS, ...all.filter((s) => s.startsWith("auth/"))];
    expect([...wanted].sort()).toEqual([...all].sort());
    const results = await runScenarios(wanted.filter((s) => !(s in NOT_APPLICABLE)));
    const failed = results
      .filter((r) => !r.passed)
      .map((r) => `${r.scenario}: ${r.problems.join("; ")}`);
    expect(failed).toEqual([]);
  });
});
