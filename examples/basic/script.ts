// The model script (not host code): read the file, fix the bug, say so.
import { reply, type ScriptResponse } from "@z-engine/testkit";

/** A small npm project whose login test fails until `src/auth/token.js` is fixed. */
export const files = {
  "package.json": '{ "name": "login", "type": "module", "scripts": { "test": "node --test" } }\n',
  "src/auth/token.js": "export const isExpired = (token, now) => now > token.expiresAt;\n",
  "test/token.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert/strict";\nimport { isExpired } from "../src/auth/token.js";\ntest("a token expires at its expiry time", () => assert.equal(isExpired({ expiresAt: 100 }, 100), true));\n',
};

export const script = (root: string): ScriptResponse[] => [
  reply.toolCall("Read", { file_path: `${root}/src/auth/token.js` }),
  reply.toolCall("Edit", {
    file_path: `${root}/src/auth/token.js`,
    old_string: "now > token.expiresAt",
    new_string: "now >= token.expiresAt",
  }),
  reply.text("Fixed: a token now expires at its expiry time."),
];
