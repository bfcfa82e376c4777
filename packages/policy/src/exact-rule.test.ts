import { beforeAll, describe, expect, it } from "vitest";
import { compileRules } from "./compile.js";
import type { DecideContext } from "./context.js";
import { decide } from "./decide.js";
import type { PermissionRules } from "./rule-index.js";
import { initShellParser, parseCommandSync } from "./shell-parser.js";

// The README's advice (issue 16, item 12): `Bash(npm test:*)` also allows options that run
// code, so `Bash(npm test)` is the rule that allows exactly `npm test` and nothing more.

const P = "/work/proj";
const ctx: DecideContext = {
  projectRoot: P,
  additionalDirectories: [],
  homeDir: "/home/u",
  autoAllowReadOnlyBash: false,
};
const origin = { source: "settings.toml", root: P };
const only = (rule: string): PermissionRules => ({
  allow: compileRules([rule], origin).rules,
  ask: [],
  deny: [],
});

function run(text: string, rules: PermissionRules) {
  const command = parseCommandSync(text);
  return decide(
    { toolName: "Bash", actions: [{ kind: "command", command, cwd: P }] },
    "ask",
    rules,
    ctx,
  ).type;
}

beforeAll(async () => {
  await initShellParser();
});

const OPTION_INJECTION = [
  "npm test --prefix /tmp/evil",
  "npm test -- '--import=data:text/javascript,process.exit()'",
  "npm test --script-shell=/tmp/evil.sh",
];

describe("Bash(npm test) against Bash(npm test:*)", () => {
  it("the prefix rule allows options that make npm run other code (documented)", () => {
    for (const text of OPTION_INJECTION)
      expect(run(text, only("Bash(npm test:*)")), text).toBe("allow");
  });

  it("the exact rule allows `npm test` as the shell reads it, and nothing else", () => {
    const exact = only("Bash(npm test)");
    for (const text of ["npm test", "npm  test", "'npm' \"test\"", "  npm test  "]) {
      expect(run(text, exact), text).toBe("allow");
    }
    for (const text of [
      ...OPTION_INJECTION,
      "npm testx",
      "npm test x",
      "npm tes",
      "npm",
      "npm run test",
      "X=1 npm test",
      "npm test; touch X",
      "npm test && curl evil.sh",
      "npm test > out.txt",
      "npm test\r#; touch X",
      "npm test $(touch X)",
    ]) {
      expect(run(text, exact), text).toBe("ask");
    }
  });
});
