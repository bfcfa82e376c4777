import type { DiscoveryContext, Ecosystem, FoundCheck } from "../ecosystem.js";
import { readToml, type TomlTable, tableAt } from "../toml.js";
import type { Folder } from "../walk.js";

const MARKERS = [
  "pyproject.toml",
  "setup.cfg",
  "setup.py",
  "tox.ini",
  "noxfile.py",
  "pytest.ini",
  "ruff.toml",
  ".ruff.toml",
  "mypy.ini",
  ".mypy.ini",
  "pyrightconfig.json",
];

/** `uv run `, `poetry run ` or `pdm run ` when the folder has that tool's lock file. */
function runnerPrefix(folder: Folder): string {
  if (folder.files.has("uv.lock")) return "uv run ";
  if (folder.files.has("poetry.lock")) return "poetry run ";
  if (folder.files.has("pdm.lock")) return "pdm run ";
  return "";
}

interface PythonFacts {
  readonly pyproject: TomlTable | undefined;
  readonly pyprojectText: string;
  readonly setupCfg: string;
  readonly toxIni: string;
}

async function readFacts(ctx: DiscoveryContext): Promise<PythonFacts> {
  const has = (name: string) => ctx.folder.files.has(name);
  return {
    pyproject: has("pyproject.toml") ? await readToml(ctx, "pyproject.toml") : undefined,
    pyprojectText: (has("pyproject.toml") && (await ctx.read("pyproject.toml"))) || "",
    setupCfg: (has("setup.cfg") && (await ctx.read("setup.cfg"))) || "",
    toxIni: (has("tox.ini") && (await ctx.read("tox.ini"))) || "",
  };
}

function usesPytest(folder: Folder, facts: PythonFacts): boolean {
  if (folder.files.has("pytest.ini") || folder.files.has("conftest.py")) return true;
  if (tableAt(facts.pyproject, "tool.pytest") !== undefined) return true;
  if (/^\[tool:pytest\]/m.test(facts.setupCfg) || /^\[pytest\]/m.test(facts.toxIni)) return true;
  if (/\bpytest\b/.test(facts.pyprojectText)) return true;
  if (folder.dirs.has("tests") || folder.dirs.has("test")) return true;
  return [...folder.files].some((f) => /^test_.*\.py$|_test\.py$/.test(f));
}

/**
 * Python: pytest (with the uv/poetry/pdm runner when locked, else `python -m pytest`),
 * tox, nox, ruff check and format, black, mypy and pyright, each when its configuration
 * (pyproject.toml tables, setup.cfg or tox.ini sections, or its own file) is present.
 */
export const pythonEcosystem: Ecosystem = {
  name: "python",
  applies: (folder) => MARKERS.some((m) => folder.files.has(m)),
  async discover(ctx) {
    const folder = ctx.folder;
    const facts = await readFacts(ctx);
    const run = runnerPrefix(folder);
    const tool = (name: string) => tableAt(facts.pyproject, `tool.${name}`) !== undefined;
    const checks: FoundCheck[] = [];
    const add = (name: string, kind: FoundCheck["kind"], command: string) =>
      checks.push({ ecosystem: "python", name, kind, command });
    if (usesPytest(folder, facts))
      add("pytest", "test", run === "" ? "python -m pytest" : `${run}pytest`);
    if (folder.files.has("tox.ini") || tool("tox")) add("tox", "test", "tox");
    if (folder.files.has("noxfile.py")) add("nox", "test", "nox");
    const mypy = folder.files.has("mypy.ini") || folder.files.has(".mypy.ini") || tool("mypy");
    if (mypy || /^\[mypy\]/m.test(facts.setupCfg)) add("mypy", "typecheck", `${run}mypy .`);
    if (folder.files.has("pyrightconfig.json") || tool("pyright"))
      add("pyright", "typecheck", `${run}pyright`);
    const ruffFile = folder.files.has("ruff.toml") || folder.files.has(".ruff.toml");
    if (ruffFile || tool("ruff")) add("ruff", "lint", `${run}ruff check .`);
    if (tool("ruff.format")) add("ruff-format", "format", `${run}ruff format --check .`);
    if (tool("black")) add("black", "format", `${run}black --check .`);
    return checks;
  },
};
