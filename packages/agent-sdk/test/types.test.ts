// Drift between this package's types and the official Agent SDK's shows up as a compile error:
// typical host code (test/types/host-code.ts) compiles against both.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const hostCode = join(here, "types", "host-code.ts");
// The package's `exports` name no package.json: its main entry's folder is where sdk.d.ts is.
const official = createRequire(import.meta.url).resolve("@anthropic-ai/claude-agent-sdk");

function compile(target: string): string[] {
  const program = ts.createProgram([hostCode], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    baseUrl: here,
    paths: { "agent-sdk-under-test": [target] },
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("types", () => {
  it("typical host code compiles against the official .d.ts", () => {
    expect(compile(join(dirname(official), "sdk.d.ts"))).toEqual([]);
  });

  // Its built declarations, as a host gets them (the tests run after the build).
  it("the same host code compiles against @z-engine/agent-sdk", () => {
    expect(compile(join(here, "..", "dist", "index.d.ts"))).toEqual([]);
  });
});
