import type { CheckDefinition } from "@z-engine/protocol";
import { checkId } from "@z-engine/protocol";
import { describe, expect, it } from "vitest";
import { autoCheckIds, selectChecks } from "./select.js";

const def = (
  ecosystem: string,
  name: string,
  cwd: string,
  kind: CheckDefinition["kind"] = "test",
  source: CheckDefinition["source"] = "discovered",
): CheckDefinition => ({
  id: checkId(ecosystem, name, cwd),
  kind,
  command: `${ecosystem} ${name}`,
  cwd,
  source,
});

const CHECKS = [
  def("pnpm", "test", "."),
  def("pnpm", "lint", ".", "lint"),
  def("pnpm", "test", "packages/api"),
  def("pnpm", "test:e2e", "packages/api"),
  def("pnpm", "build", "packages/api", "build"),
  def("pnpm", "test", "packages/web"),
  def("cargo", "test", "packages/web"),
  def("go", "test", "services/go"),
];
const ids = (checks: CheckDefinition[]) => checks.map((c) => c.id);

describe("selectChecks", () => {
  it("takes the nearest package's primary test check per ecosystem", () => {
    expect(ids(selectChecks(CHECKS, ["packages/api/src/user.ts"]))).toEqual([
      "pnpm:test@packages/api",
    ]);
    expect(ids(selectChecks(CHECKS, ["packages/web/index.ts", "packages/api/x.ts"]))).toEqual([
      "pnpm:test@packages/api",
      "pnpm:test@packages/web",
      "cargo:test@packages/web",
    ]);
    expect(ids(selectChecks(CHECKS, ["README.md"]))).toEqual(["pnpm:test"]);
  });

  it("returns every test check when nothing is covered or nothing changed", () => {
    const noRoot = CHECKS.filter((c) => c.cwd !== ".");
    const everyTest = ids(noRoot.filter((c) => c.kind === "test"));
    expect(ids(selectChecks(noRoot, ["docs/guide.md"]))).toEqual(everyTest);
    expect(ids(selectChecks(noRoot, []))).toEqual(everyTest);
  });

  it("normalises paths: ./, backslashes, absolute with a root; ignores escapes", () => {
    expect(ids(selectChecks(CHECKS, ["./packages/api/a.ts"]))).toEqual(["pnpm:test@packages/api"]);
    expect(ids(selectChecks(CHECKS, ["packages\\api\\a.ts"]))).toEqual(["pnpm:test@packages/api"]);
    expect(
      ids(selectChecks(CHECKS, ["/repo/services/go/main.go"], { projectRoot: "/repo" })),
    ).toEqual(["go:test@services/go"]);
    expect(ids(selectChecks(CHECKS, ["packages/apix/a.ts"]))).toEqual(["pnpm:test"]);
    const outside = ids(selectChecks(CHECKS.slice(2), ["../other/a.ts", "/etc/passwd"]));
    expect(outside).toEqual(ids(CHECKS.slice(2).filter((c) => c.kind === "test")));
  });
});

describe("autoCheckIds", () => {
  it("uses configured auto_checks and reports unknown ids", () => {
    const result = autoCheckIds({
      checks: CHECKS,
      configured: ["pnpm:lint", "nope:test", "pnpm:lint"],
      changedPaths: ["packages/api/a.ts"],
    });
    expect(result).toEqual({ ids: ["pnpm:lint"], unknown: ["nope:test"] });
  });

  it("defaults to the discovered test checks selected for the changed paths", () => {
    const withConfigured = [def("custom", "test", "packages/api", "test", "configured"), ...CHECKS];
    expect(autoCheckIds({ checks: withConfigured, changedPaths: ["packages/api/a.ts"] })).toEqual({
      ids: ["pnpm:test@packages/api"],
      unknown: [],
    });
  });
});
