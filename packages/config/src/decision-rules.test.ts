import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decisionRules, MAX_DECISION_RULES } from "./decision-rules.js";
import { loadSettings } from "./load.js";
import { createWorld, type World } from "./world.test.helpers.js";

let world: World;
beforeEach(async () => {
  world = await createWorld();
});
afterEach(() => world.dispose());

const RULES = `
[[decisions.rules]]
name = "prod-db"
when = "the call touches the production database"
at = "tool_gate"

[[decisions.rules]]
when = "the user asks for a release"
at = "turn_start"
remind = "run the release checklist"
`;

describe("[[decisions.rules]]", () => {
  it("loads the rules of a trusted project, and none of an untrusted one", async () => {
    await world.write("project/.z-engine/settings.toml", RULES);
    const load = (trusted: boolean) =>
      loadSettings({ env: world.env, paths: world.paths, projectRoot: world.project, trusted });
    const untrusted = load(false);
    expect(untrusted.problems).toEqual([]);
    expect(untrusted.withheld).toEqual(["decisions"]);
    expect(decisionRules(untrusted.settings)).toEqual({ rules: [], skipped: [] });
    const trusted = load(true);
    expect(trusted.problems).toEqual([]);
    expect(decisionRules(trusted.settings).rules).toEqual([
      { name: "prod-db", when: "the call touches the production database", at: "tool_gate" },
      {
        name: "rule 2",
        when: "the user asks for a release",
        at: "turn_start",
        remind: "run the release checklist",
      },
    ]);
  });

  it("keeps the user's rules in an untrusted project", async () => {
    await world.write("config/settings.toml", RULES);
    await world.write("project/.z-engine/settings.toml", `[[decisions.rules]]\nwhen = "x"\n`);
    const result = loadSettings({
      env: world.env,
      paths: world.paths,
      projectRoot: world.project,
      trusted: false,
    });
    expect(decisionRules(result.settings).rules.map((r) => r.name)).toEqual(["prod-db", "rule 2"]);
  });

  it("skips a rule without `when` or with an unknown `at`, one message each, and past 20", () => {
    const rules = [
      { name: "no-when", at: "tool_gate" },
      { name: "odd", when: "w", at: "stop" },
      { when: "fine", at: "turn_start" },
      ...Array.from({ length: MAX_DECISION_RULES }, () => ({ when: "w", at: "tool_gate" })),
    ];
    const read = decisionRules({ decisions: { rules } });
    expect(read.rules).toHaveLength(MAX_DECISION_RULES - 2);
    expect(read.rules[0]).toEqual({ name: "rule 3", when: "fine", at: "turn_start" });
    expect(read.skipped).toEqual([
      'decision rule "no-when" is skipped: it has no `when`',
      'decision rule "odd" is skipped: `at` must be "tool_gate" or "turn_start", not "stop"',
      "3 decision rule(s) past the first 20 are skipped",
    ]);
  });
});
