// The fixture and the model script (not host code).
import { reply, type ScriptResponse } from "@z-engine/testkit";

export const files = {
  "package.json": '{ "type": "module", "scripts": { "test": "node --test" } }\n',
  "sum.js": "export const sum = (a, b) => a - b;\n",
  "sum.test.js":
    'import { test } from "node:test";\nimport assert from "node:assert";\nimport { sum } from "./sum.js";\ntest("sum", () => assert.equal(sum(1, 2), 3));\n',
};

export const script = (path: (p: string) => string): ScriptResponse[] => [
  reply.toolCall("Read", { file_path: path("sum.js") }),
  reply.toolCall("Edit", { file_path: path("sum.js"), old_string: "a - b", new_string: "a + b" }),
  reply.text("Fixed."),
];
