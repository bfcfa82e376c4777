import { chmod, symlink } from "node:fs/promises";
import type { CheckDefinition, ProjectFileReader } from "@z-engine/protocol";
import {
  createFixtureRepo,
  type FixtureFiles,
  type FixtureRepo,
  plainFileReader,
} from "@z-engine/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { VerifyError } from "../errors.js";
import { discoverChecks, mergeChecks } from "./discover.js";

const reader = plainFileReader();

const repos: FixtureRepo[] = [];
afterEach(async () => {
  await Promise.all(repos.splice(0).map((r) => r.dispose()));
});

async function project(files: FixtureFiles): Promise<FixtureRepo> {
  const repo = await createFixtureRepo({ files, git: false, prefix: "zeng-verify-" });
  repos.push(repo);
  return repo;
}

/** `id → "kind | cwd | command"`, the whole discovery as one comparable value. */
async function discover(files: FixtureFiles, maxDepth?: number) {
  const repo = await project(files);
  const result = await discoverChecks(
    repo.root,
    maxDepth === undefined ? { files: reader } : { files: reader, maxDepth },
  );
  const table = Object.fromEntries(
    result.checks.map((c) => [c.id, `${c.kind} | ${c.cwd} | ${c.command}`]),
  );
  return {
    table,
    ids: result.checks.map((c) => c.id),
    problems: result.problems,
    checks: result.checks,
  };
}

const pkg = (scripts: Record<string, string>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name: "x", version: "1.0.0", scripts, ...extra });

describe("npm family", () => {
  it("maps scripts to kinds and commands, test first", async () => {
    const { table, ids } = await discover({
      "package.json": pkg({
        build: "tsc -b",
        lint: "biome check .",
        "lint:fix": "biome check --write .",
        test: "vitest run",
        "test:watch": "vitest",
        "test:e2e": "playwright test",
        typecheck: "tsc --noEmit",
        format: "prettier --write .",
        "format:check": "prettier --check .",
        dev: "vite",
        start: "node .",
      }),
      "package-lock.json": "{}",
    });
    expect(table).toEqual({
      "npm:test": "test | . | npm test",
      "npm:test:e2e": "test | . | npm run test:e2e",
      "npm:build": "build | . | npm run build",
      "npm:typecheck": "typecheck | . | npm run typecheck",
      "npm:lint": "lint | . | npm run lint",
      "npm:format:check": "format | . | npm run format:check",
    });
    expect(ids[0]).toBe("npm:test");
  });

  it("uses the workspace root's lock file for nested packages (pnpm, yarn, bun)", async () => {
    const { table } = await discover({
      "package.json": pkg(
        { test: "turbo run test", lint: "biome check ." },
        { workspaces: ["packages/*"] },
      ),
      "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
      "pnpm-workspace.yaml": "packages: ['packages/*']\n",
      "packages/api/package.json": pkg({ test: "vitest run", build: "tsc" }),
      "packages/web/package.json": pkg({ "test:unit": "vitest run" }),
      "packages/web/node_modules/dep/package.json": pkg({ test: "never" }),
    });
    expect(table).toEqual({
      "pnpm:test": "test | . | pnpm test",
      "pnpm:lint": "lint | . | pnpm run lint",
      "pnpm:test@packages/api": "test | packages/api | pnpm test",
      "pnpm:build@packages/api": "build | packages/api | pnpm run build",
      "pnpm:test:unit@packages/web": "test | packages/web | pnpm run test:unit",
    });
    const yarn = await discover({ "yarn.lock": "", "package.json": pkg({ test: "jest" }) });
    expect(yarn.table).toEqual({ "yarn:test": "test | . | yarn test" });
    const bun = await discover({
      "bun.lock": "{}",
      "package.json": pkg({ test: "bun test", build: "bun build" }),
    });
    expect(bun.table).toEqual({
      "bun:test": "test | . | bun run test",
      "bun:build": "build | . | bun run build",
    });
  });

  it("falls back to packageManager, then npm; skips npm's placeholder test", async () => {
    const declared = await discover({
      "package.json": pkg({ test: "vitest" }, { packageManager: "pnpm@10.34.9" }),
    });
    expect(declared.table).toEqual({ "pnpm:test": "test | . | pnpm test" });
    const placeholder = await discover({
      "package.json": pkg({ test: 'echo "Error: no test specified" && exit 1', build: "tsc" }),
    });
    expect(placeholder.table).toEqual({ "npm:build": "build | . | npm run build" });
  });

  it("reports a malformed or hostile package.json and keeps the rest", async () => {
    const { table, problems } = await discover({
      "package.json": "{ not json",
      "a/package.json": JSON.stringify({ scripts: ["test"] }),
      "b/package.json": pkg({ "test:$(rm -rf ~)": "x", "test:ok": "vitest", lint: "" }),
      "c/package.json": pkg({ test: "vitest" }),
      "d/package.json": "[]",
    });
    expect(table).toEqual({
      "npm:test:ok@b": "test | b | npm run test:ok",
      "npm:test@c": "test | c | npm test",
    });
    expect(problems.map((p) => p.path)).toEqual([
      "a/package.json",
      "b/package.json",
      "d/package.json",
      "package.json",
    ]);
    expect(problems.find((p) => p.path === "package.json")?.message).toMatch(/not valid JSON/);
    expect(problems.find((p) => p.path === "b/package.json")?.message).toMatch(/unsafe name/);
  });
});

describe("Cargo", () => {
  it("gives a workspace root the whole set and member crates their own test", async () => {
    const { table } = await discover({
      "Cargo.toml": '[workspace]\nmembers = ["crates/*"]\nresolver = "2"\n',
      "crates/core/Cargo.toml": '[package]\nname = "core"\nversion = "0.1.0"\n',
      "crates/cli/Cargo.toml": '[package]\nname = "cli"\nversion = "0.1.0"\n',
      "target/debug/build/x/Cargo.toml": '[package]\nname = "x"\n',
    });
    expect(table).toEqual({
      "cargo:test": "test | . | cargo test --workspace",
      "cargo:build": "build | . | cargo build --workspace",
      "cargo:check": "typecheck | . | cargo check --workspace --all-targets",
      "cargo:clippy": "lint | . | cargo clippy --workspace --all-targets",
      "cargo:fmt": "format | . | cargo fmt --all --check",
      "cargo:test@crates/cli": "test | crates/cli | cargo test",
      "cargo:test@crates/core": "test | crates/core | cargo test",
    });
  });

  it("treats a lone crate as its own root and reports malformed TOML", async () => {
    const { table, problems } = await discover({
      "tool/Cargo.toml": '[package]\nname = "tool"\nversion = "0.1.0"\n',
      "broken/Cargo.toml": "[package\nname=",
    });
    expect(Object.keys(table)).toEqual([
      "cargo:test@tool",
      "cargo:build@tool",
      "cargo:check@tool",
      "cargo:clippy@tool",
      "cargo:fmt@tool",
    ]);
    expect(table["cargo:test@tool"]).toBe("test | tool | cargo test");
    expect(problems).toEqual([
      { path: "broken/Cargo.toml", message: expect.stringMatching(/not valid TOML/) },
    ]);
  });
});

describe("Python", () => {
  it("reads pyproject tables and the uv lock", async () => {
    const { table } = await discover({
      "pyproject.toml": [
        "[project]",
        'name = "app"',
        "[tool.pytest.ini_options]",
        'testpaths = ["tests"]',
        "[tool.ruff]",
        "line-length = 100",
        "[tool.ruff.format]",
        'quote-style = "double"',
        "[tool.mypy]",
        "strict = true",
      ].join("\n"),
      "uv.lock": "version = 1\n",
      "tests/test_app.py": "def test_x(): pass\n",
    });
    expect(table).toEqual({
      "python:pytest": "test | . | uv run pytest",
      "python:mypy": "typecheck | . | uv run mypy .",
      "python:ruff": "lint | . | uv run ruff check .",
      "python:ruff-format": "format | . | uv run ruff format --check .",
    });
  });

  it("reads setup.cfg, tox.ini, noxfile.py and tool files", async () => {
    const { table } = await discover({
      "setup.cfg": "[metadata]\nname = lib\n[tool:pytest]\naddopts = -q\n[mypy]\nstrict = True\n",
      "tox.ini": "[tox]\nenvlist = py311\n",
      "noxfile.py": "import nox\n",
      "ruff.toml": "line-length = 88\n",
      "pyrightconfig.json": "{}",
    });
    expect(table).toEqual({
      "python:pytest": "test | . | python -m pytest",
      "python:tox": "test | . | tox",
      "python:nox": "test | . | nox",
      "python:mypy": "typecheck | . | mypy .",
      "python:pyright": "typecheck | . | pyright",
      "python:ruff": "lint | . | ruff check .",
    });
  });

  it("uses poetry's runner and black; a project without tests gets no pytest", async () => {
    const { table } = await discover({
      "pyproject.toml": '[tool.poetry]\nname = "a"\n[tool.black]\nline-length = 88\n',
      "poetry.lock": "",
    });
    expect(table).toEqual({ "python:black": "format | . | poetry run black --check ." });
  });
});

describe("Go, Gradle, Maven, .NET, CMake", () => {
  it("gives each Go module its checks", async () => {
    const { table } = await discover({
      "go.work": "go 1.22\nuse (./api ./tools/gen)\n",
      "api/go.mod": "module example.com/api\n",
      "tools/gen/go.mod": "module example.com/gen\n",
    });
    expect(table).toEqual({
      "go:test@api": "test | api | go test ./...",
      "go:build@api": "build | api | go build ./...",
      "go:vet@api": "lint | api | go vet ./...",
      "go:test@tools/gen": "test | tools/gen | go test ./...",
      "go:build@tools/gen": "build | tools/gen | go build ./...",
      "go:vet@tools/gen": "lint | tools/gen | go vet ./...",
    });
  });

  it("runs Gradle and Maven builds from their root, with the wrapper when present", async () => {
    const gradle = await discover({
      "settings.gradle.kts": 'include("app", "lib")\n',
      gradlew: { content: "#!/bin/sh\n", mode: 0o755 },
      "app/build.gradle.kts": "plugins { java }\n",
      "lib/build.gradle.kts": "plugins { java }\n",
    });
    expect(gradle.table).toEqual({
      "gradle:test": "test | . | ./gradlew test",
      "gradle:build": "build | . | ./gradlew assemble",
    });
    const maven = await discover({
      "pom.xml": "<project><modules><module>core</module></modules></project>",
      "core/pom.xml": "<project/>",
    });
    expect(maven.table).toEqual({
      "maven:test": "test | . | mvn test",
      "maven:compile": "build | . | mvn compile",
    });
  });

  it("runs .NET through the solution, and a lone test project by itself", async () => {
    const sln = await discover({
      "Calc.sln": "Microsoft Visual Studio Solution File\n",
      "src/Calc/Calc.csproj": '<Project Sdk="Microsoft.NET.Sdk"/>',
      "tests/Calc.Tests/Calc.Tests.csproj": '<PackageReference Include="Microsoft.NET.Test.Sdk" />',
    });
    expect(sln.table).toEqual({
      "dotnet:test": "test | . | dotnet test",
      "dotnet:build": "build | . | dotnet build",
      "dotnet:format": "format | . | dotnet format --verify-no-changes",
    });
    const lone = await discover({
      "lib/Lib.fsproj": '<Project Sdk="Microsoft.NET.Sdk"/>',
      "spec/Spec.csproj":
        "<Project><PropertyGroup><IsTestProject>true</IsTestProject></PropertyGroup></Project>",
    });
    expect(Object.keys(lone.table)).toEqual([
      "dotnet:build@lib",
      "dotnet:format@lib",
      "dotnet:test@spec",
      "dotnet:build@spec",
      "dotnet:format@spec",
    ]);
  });

  it("builds CMake from the top list and tests when testing is enabled", async () => {
    const { table } = await discover({
      "CMakeLists.txt":
        "cmake_minimum_required(VERSION 3.20)\nproject(x)\nenable_testing()\nadd_subdirectory(lib)\n",
      "lib/CMakeLists.txt": "add_library(lib lib.c)\n",
      "build/Makefile": "# CMAKE generated file: DO NOT EDIT!\ntest:\n\tctest\n",
    });
    expect(table).toEqual({
      "cmake:test":
        "test | . | cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure",
      "cmake:build": "build | . | cmake -S . -B build && cmake --build build",
    });
  });
});

describe("Make, just, Deno", () => {
  it("reads Makefile targets named like checks", async () => {
    const { table } = await discover({
      Makefile: [
        "CC := gcc",
        "FLAGS = -O2",
        ".PHONY: all test lint",
        "all: build",
        "build:",
        "\t$(CC) main.c",
        "test check: build",
        "\t./run-tests",
        "lint:",
        "\tcppcheck .",
        "%.o: %.c",
        "\t$(CC) -c $<",
        "install:",
      ].join("\n"),
    });
    expect(table).toEqual({
      "make:test": "test | . | make test",
      "make:check": "test | . | make check",
      "make:all": "build | . | make all",
      "make:build": "build | . | make build",
      "make:lint": "lint | . | make lint",
    });
  });

  it("reads just recipes that need no argument", async () => {
    const { table } = await discover({
      justfile: [
        'set shell := ["bash", "-c"]',
        "alias t := test",
        'version := "1"',
        "",
        "# run the tests",
        "test *args:",
        "    cargo test {{args}}",
        "lint target='.':",
        "    ruff check {{target}}",
        "build profile:",
        "    cargo build --profile {{profile}}",
        "@fmt:",
        "    cargo fmt --check",
      ].join("\n"),
    });
    expect(table).toEqual({
      "just:test": "test | . | just test",
      "just:lint": "lint | . | just lint",
      "just:fmt": "format | . | just fmt",
    });
  });

  it("gives Deno its built-ins and lets a task replace one", async () => {
    const { table, problems } = await discover({
      "deno.jsonc":
        '{\n  // tasks\n  "tasks": { "test": "deno test -A", "dev": "deno run -A main.ts", /* x */ },\n}\n',
      "bad/deno.json": "{ tasks: }",
    });
    expect(table).toEqual({
      "deno:test": "test | . | deno task test",
      "deno:check": "typecheck | . | deno check .",
      "deno:lint": "lint | . | deno lint",
      "deno:fmt": "format | . | deno fmt --check",
      "deno:test@bad": "test | bad | deno test",
      "deno:check@bad": "typecheck | bad | deno check .",
      "deno:lint@bad": "lint | bad | deno lint",
      "deno:fmt@bad": "format | bad | deno fmt --check",
    });
    expect(problems).toEqual([
      { path: "bad/deno.json", message: expect.stringMatching(/not valid JSON/) },
    ]);
  });
});

describe("a repository of several ecosystems", () => {
  it("lists each folder's checks, root first, and stops four folders down", async () => {
    const { ids } = await discover({
      "package.json": pkg({ test: "vitest run" }),
      "package-lock.json": "{}",
      "Cargo.toml": '[package]\nname = "native"\nversion = "0.1.0"\n',
      "services/api/go.mod": "module api\n",
      "services/ml/pyproject.toml": '[project]\nname = "ml"\ndependencies = ["pytest"]\n',
      "a/b/c/d/go.mod": "module deep\n",
      "a/b/c/d/e/go.mod": "module too-deep\n",
      ".github/workflows/package.json": pkg({ test: "x" }),
      "docs/Makefile": "html:\n\tsphinx-build\n",
    });
    expect(ids).toEqual([
      "cargo:test",
      "cargo:build",
      "cargo:check",
      "cargo:clippy",
      "cargo:fmt",
      "npm:test",
      "go:test@a/b/c/d",
      "go:build@a/b/c/d",
      "go:vet@a/b/c/d",
      "go:test@services/api",
      "go:build@services/api",
      "go:vet@services/api",
      "python:pytest@services/ml",
    ]);
  });

  it("honours maxDepth and ignoreDirs", async () => {
    const repo = await project({ "x/go.mod": "module x\n", "vendor/y/go.mod": "module y\n" });
    expect((await discoverChecks(repo.root, { files: reader, maxDepth: 0 })).checks).toEqual([]);
    const custom = await discoverChecks(repo.root, { files: reader, ignoreDirs: ["x"] });
    expect(custom.checks.map((c) => c.id)).toEqual([
      "go:test@vendor/y",
      "go:build@vendor/y",
      "go:vet@vendor/y",
    ]);
  });
});

describe("discovery failures", () => {
  it("rejects with rootUnreadable for a missing root", async () => {
    const error = await discoverChecks("/nonexistent/zeng-verify", { files: reader }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VerifyError);
    expect((error as VerifyError).code).toBe("rootUnreadable");
  });

  it("reports an unreadable folder and an oversized build file, keeping the rest", async () => {
    const repo = await project({
      "locked/package.json": pkg({ test: "x" }),
      "big/package.json": pkg({ test: "x", pad: "y".repeat(5000) }),
      "ok/go.mod": "module ok\n",
    });
    await chmod(repo.path("locked"), 0o000);
    try {
      const result = await discoverChecks(repo.root, { files: reader, maxFileBytes: 2000 });
      expect(result.checks.map((c) => c.id)).toEqual(
        ["go:test@ok", "go:build@ok", "go:vet@ok"]
          .concat(process.getuid?.() === 0 ? ["npm:test@locked"] : [])
          .sort(byFolder),
      );
      expect(result.problems.find((p) => p.path === "big/package.json")?.message).toMatch(
        /over the 2000-byte limit/,
      );
    } finally {
      await chmod(repo.path("locked"), 0o755);
    }
  });

  it("reads only through the reader it is handed: its refusals are problems, links are not read", async () => {
    const repo = await project({
      "denied/package.json": pkg({ test: "x" }),
      "ok/go.mod": "module ok\n",
      "outside/package.json": pkg({ test: "planted" }),
    });
    await symlink(repo.path("outside/package.json"), repo.path("ok/package.json"));
    const read: string[] = [];
    const door: ProjectFileReader = {
      ...reader,
      readText: async (path, options) => {
        read.push(path);
        if (path.endsWith("denied/package.json"))
          return { ok: false, path, reason: "denied", message: `${path}: reading it is denied` };
        return reader.readText(path, options);
      },
    };
    const result = await discoverChecks(repo.root, { files: door, ignoreDirs: ["outside"] });
    expect(result.checks.map((c) => c.id)).toEqual(["go:test@ok", "go:build@ok", "go:vet@ok"]);
    expect(result.problems).toEqual([
      {
        path: "denied/package.json",
        message: `skipped: ${repo.path("denied/package.json")}: reading it is denied`,
      },
    ]);
    expect(read).not.toContain(repo.path("ok/package.json"));
  });

  it("rejects with aborted when the signal fires", async () => {
    const repo = await project({ "a/go.mod": "module a\n" });
    const controller = new AbortController();
    controller.abort();
    const error = await discoverChecks(repo.root, {
      files: reader,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect((error as VerifyError).code).toBe("aborted");
  });
});

function byFolder(a: string, b: string): number {
  const folder = (id: string) => id.split("@")[1] ?? "";
  return folder(a) < folder(b) ? -1 : folder(a) > folder(b) ? 1 : 0;
}

describe("mergeChecks", () => {
  const def = (id: string, command: string, source: CheckDefinition["source"]): CheckDefinition =>
    ({ id, kind: "test", command, cwd: ".", source }) as CheckDefinition;

  it("replaces discovered checks in place and appends new ones", () => {
    const discovered = [
      def("npm:test", "npm test", "discovered"),
      def("npm:lint", "npm run lint", "discovered"),
    ];
    const configured = [
      def("custom:e2e", "make e2e", "configured"),
      def("npm:test", "npm test -- --run", "configured"),
      def("custom:e2e", "make e2e-fast", "configured"),
    ];
    expect(
      mergeChecks(discovered, configured).map((c) => `${c.id} ${c.command} ${c.source}`),
    ).toEqual([
      "npm:test npm test -- --run configured",
      "npm:lint npm run lint discovered",
      "custom:e2e make e2e-fast configured",
    ]);
    expect(mergeChecks(discovered, [])).toEqual(discovered);
  });
});
