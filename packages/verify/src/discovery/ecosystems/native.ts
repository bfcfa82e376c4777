import type { Ecosystem, FoundCheck } from "../ecosystem.js";
import { ancestorFolders } from "../ecosystem.js";
import type { Folder } from "../walk.js";

const solutions = (f: Folder) => [...f.files].filter((n) => /\.slnx?$/.test(n)).sort();
const projects = (f: Folder) => [...f.files].filter((n) => /\.(?:cs|fs|vb)proj$/.test(n)).sort();

/**
 * .NET: a folder with a solution gets `dotnet test`, `dotnet build` and `dotnet format
 * --verify-no-changes` (naming the solution when there are several); a project outside
 * any solution gets build, and test when it references Microsoft.NET.Test.Sdk or sets
 * IsTestProject. Projects under a solution's folder run through the solution.
 */
export const dotnetEcosystem: Ecosystem = {
  name: "dotnet",
  applies: (folder) => solutions(folder).length > 0 || projects(folder).length > 0,
  async discover(ctx) {
    if (ancestorFolders(ctx).some((f) => solutions(f).length > 0)) return [];
    const slns = solutions(ctx.folder);
    const projs = projects(ctx.folder);
    const many = slns.length > 1 || (slns.length === 0 && projs.length > 1);
    const target = many ? ` ${slns[0] ?? projs[0]}` : "";
    const checks: FoundCheck[] = [];
    let isTest = slns.length > 0;
    if (!isTest) {
      for (const proj of projs) {
        const text = (await ctx.read(proj)) ?? "";
        if (/Microsoft\.NET\.Test\.Sdk|<IsTestProject>\s*true/i.test(text)) isTest = true;
      }
    }
    if (isTest)
      checks.push({
        ecosystem: "dotnet",
        name: "test",
        kind: "test",
        command: `dotnet test${target}`,
      });
    checks.push({
      ecosystem: "dotnet",
      name: "build",
      kind: "build",
      command: `dotnet build${target}`,
    });
    checks.push({
      ecosystem: "dotnet",
      name: "format",
      kind: "format",
      command: `dotnet format${target} --verify-no-changes`,
    });
    return checks;
  },
};

const CMAKE_CONFIGURE = "cmake -S . -B build && cmake --build build";

/**
 * CMake: the top CMakeLists.txt (not one included by a parent) gets build (configure into
 * `build/` and build), and test (then `ctest --test-dir build`) when it enables testing.
 */
export const cmakeEcosystem: Ecosystem = {
  name: "cmake",
  applies: (folder) => folder.files.has("CMakeLists.txt"),
  async discover(ctx) {
    if (ancestorFolders(ctx).some((f) => f.files.has("CMakeLists.txt"))) return [];
    const text = (await ctx.read("CMakeLists.txt")) ?? "";
    const checks: FoundCheck[] = [];
    if (/^\s*(?:enable_testing\s*\(|include\s*\(\s*CTest\b|add_test\s*\()/im.test(text)) {
      checks.push({
        ecosystem: "cmake",
        name: "test",
        kind: "test",
        command: `${CMAKE_CONFIGURE} && ctest --test-dir build --output-on-failure`,
      });
    }
    checks.push({ ecosystem: "cmake", name: "build", kind: "build", command: CMAKE_CONFIGURE });
    return checks;
  },
};
