import { describe, expect, it } from "vitest";
import { measureCalls, measureCredentials } from "../scripts/public-data/measure.js";
import { commandCases, credentialCases } from "../scripts/public-data/sets.js";
import { NativeRuntime } from "../src/decisions/native.js";

// The shipped models on public data they were not trained on (scripts/public-data/SOURCE.md).
describe("the shipped classifiers on public data", () => {
  it("keep the evaluation half out of training: no text is in both halves", () => {
    const evalTexts = new Set(credentialCases("eval").map((c) => c.text));
    expect(credentialCases("train").filter((c) => evalTexts.has(c.text))).toEqual([]);
    const evalCommands = new Set(commandCases("eval").map((c) => c.command));
    expect(commandCases("train").filter((c) => evalCommands.has(c.command))).toEqual([]);
  });

  it("credential: precision and recall at least 0.8 on gitleaks' cases, recall above the key-format detector's", async () => {
    const m = await measureCredentials(new NativeRuntime());
    expect(m.n).toBeGreaterThan(500);
    expect(m.model.precision).toBeGreaterThanOrEqual(0.8);
    expect(m.model.recall).toBeGreaterThanOrEqual(0.8);
    expect(m.model.recall).toBeGreaterThan(m.baseline.recall);
  });

  it("risky-call: precision and recall at least 0.8 on NL2Bash, precision above the policy's", async () => {
    const m = await measureCalls(new NativeRuntime());
    expect(m.n).toBeGreaterThan(5000);
    expect(m.model.precision).toBeGreaterThanOrEqual(0.8);
    expect(m.model.recall).toBeGreaterThanOrEqual(0.8);
    expect(m.model.precision).toBeGreaterThan(m.baseline.precision);
  });
});
