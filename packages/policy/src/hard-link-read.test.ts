import type { PermissionMode } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";

// Issue 38, item 25: a hard link inside the project to a file under a Read deny rule.
const P = "/work/proj";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: [],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: false,
};
const origin = { source: `${P}/.z-engine/settings.toml`, root: P };
const rules = (spec: { allow?: string[]; ask?: string[]; deny?: string[] }) => ({
  allow: compileRules(spec.allow ?? [], origin).rules,
  ask: compileRules(spec.ask ?? [], origin).rules,
  deny: compileRules(spec.deny ?? [], origin).rules,
});
const readOf = (
  path: string,
  hardLinked: boolean,
  spec: Parameters<typeof rules>[0] = {},
  mode: PermissionMode = "ask",
) =>
  decide(
    { toolName: "Read", actions: [{ kind: "read", paths: [path], hardLinked }] },
    mode,
    rules(spec),
    ctx,
  );

describe("reading a file with several hard links", () => {
  it("asks when no rule matches it under its own name, in every mode but bypass", () => {
    for (const mode of ["ask", "acceptEdits", "plan"] as const) {
      const decision = readOf(`${P}/notes.txt`, true, { deny: ["Read(~/.ssh/**)"] }, mode);
      expect(decision.type).toBe("ask");
      expect(decision.type === "ask" && decision.reason).toContain("other hard links");
    }
    expect(readOf(`${P}/notes.txt`, true, {}, "bypass").type).toBe("allow");
    expect(readOf(`${P}/notes.txt`, false).type).toBe("allow");
  });

  it("follows a rule that matches it under its own name", () => {
    expect(readOf(`${P}/data/big.bin`, true, { allow: ["Read(./data/**)"] }).type).toBe("allow");
    expect(readOf(`${P}/data/big.bin`, true, { allow: ["Read"] }).type).toBe("allow");
    expect(readOf(`${P}/data/big.bin`, true, { deny: ["Read(./data/**)"] }).type).toBe("deny");
    expect(readOf(`${P}/data/big.bin`, true, { ask: ["Read(./data/**)"] }).type).toBe("ask");
    expect(readOf(`${P}/other.bin`, true, { allow: ["Read(./data/**)"] }).type).toBe("ask");
  });
});
