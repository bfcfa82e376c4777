import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { errorCodesIn, isCamelCode, miscasedErrorCodes } from "./error-codes.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("error codes", () => {
  it("are camelCase in every package and app", () => {
    expect(miscasedErrorCodes(repoRoot)).toEqual([]);
  });

  it("are read from ErrorCode types and Error classes' code literals", () => {
    const text = [
      `export type HostErrorCode = "gitFailed" | "git_refused";`,
      `export class ParserError extends Error { readonly code = "SHELL_PARSER"; }`,
      `class Other { readonly code = "left_alone"; }`,
      `class UserStop extends Error { readonly code = "user_stop"; }`,
      `type Mode = "not_a_code";`,
    ].join("\n");
    expect(errorCodesIn("m.ts", text)).toEqual([
      { code: "gitFailed", line: 1 },
      { code: "git_refused", line: 1 },
      { code: "SHELL_PARSER", line: 2 },
      { code: "user_stop", line: 4 },
    ]);
  });

  it("take dotted namespaces", () => {
    expect(["notFound", "agentSdk.aborted", "store.syncFailed"].every(isCamelCode)).toBe(true);
    expect(["not_found", "NOT_FOUND", "Store.x", "a..b"].some(isCamelCode)).toBe(false);
  });
});
