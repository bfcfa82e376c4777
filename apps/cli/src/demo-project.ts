import { reply, type ScriptResponse } from "@z-engine/testkit";

/** The walkthrough's prompt (how-it-works.md, "fix the failing test"). */
export const DEMO_PROMPT = "The login test fails. Please fix it.";

/** A small npm project whose login test fails until `src/auth/token.js` is fixed. */
export const LOGIN_PROJECT: Record<string, string> = {
  "package.json": `${JSON.stringify(
    {
      name: "login-demo",
      version: "1.0.0",
      type: "module",
      scripts: { test: "node --test" },
    },
    null,
    2,
  )}\n`,
  "src/auth/token.js":
    "export function isExpired(token, now) {\n  return now > token.expiresAt;\n}\n",
  "test/token.test.js": [
    'import { test } from "node:test";',
    'import assert from "node:assert/strict";',
    'import { isExpired } from "../src/auth/token.js";',
    "",
    'test("login token expires at its expiry time", () => {',
    "  assert.equal(isExpired({ expiresAt: 100 }, 100), true);",
    "});",
    "",
  ].join("\n"),
};

/** The edit that fixes the project (file path relative to its root). */
export const LOGIN_FIX = {
  file_path: "src/auth/token.js",
  old_string: "now > token.expiresAt",
  new_string: "now >= token.expiresAt",
};

/** The summary the model writes in the last round. */
export const DEMO_SUMMARY =
  "Fixed `isExpired` in src/auth/token.js: a token now counts as expired at its expiry time (`>=` instead of `>`). The login test passes.";

const usage = (input: number, output: number) => ({ usage: { input, output } });

/**
 * The five rounds of the walkthrough: Verify, Grep + Read + Read, Edit, Verify, a summary.
 * `path` makes a project-relative path absolute (the tools take absolute paths).
 */
export function walkthroughScript(path: (relative: string) => string): ScriptResponse[] {
  return [
    reply.toolCall("Verify", { checks: ["npm:test"] }, usage(1800, 40)),
    reply.toolCalls(
      [
        { name: "Grep", input: { pattern: "isExpired", path: path(".") } },
        { name: "Read", input: { file_path: path("src/auth/token.js") } },
        { name: "Read", input: { file_path: path("test/token.test.js") } },
      ],
      usage(2300, 90),
    ),
    reply.toolCall("Edit", { ...LOGIN_FIX, file_path: path(LOGIN_FIX.file_path) }, usage(2700, 70)),
    reply.toolCall("Verify", { checks: ["npm:test"] }, usage(2900, 40)),
    reply.text(DEMO_SUMMARY, usage(3100, 60)),
  ];
}
