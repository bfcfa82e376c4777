import { resolve } from "node:path";
import {
  editProjectSettings,
  editUserSettings,
  type Env,
  loadSettings,
  resolvePaths,
  type TomlTable,
  TrustStore,
} from "@z-engine/config";
import { EXIT } from "../exit-codes.js";
import type { Io } from "../output/result.js";

interface ConfigArgs {
  readonly verb: "get" | "set" | "list";
  readonly global: boolean;
  readonly cwd?: string;
  readonly words: readonly string[];
}

function parse(argv: readonly string[]): ConfigArgs | string {
  const [verb, ...rest] = argv;
  if (verb !== "get" && verb !== "set" && verb !== "list")
    return verb === undefined
      ? "needs a command: get, set or list"
      : `unknown config command ${JSON.stringify(verb)}`;
  let global = false;
  let cwd: string | undefined;
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i] as string;
    if (t === "-g" || t === "--global") global = true;
    else if (t === "--cwd") cwd = rest[++i];
    else if (t.startsWith("-") && words.length === 0) return `unknown option ${JSON.stringify(t)}`;
    else words.push(t);
  }
  const want = { get: 1, set: 2, list: 0 }[verb];
  if (words.length !== want)
    return verb === "list"
      ? "list takes no arguments"
      : `${verb} needs ${verb === "get" ? "KEY" : "KEY VALUE"}`;
  return { verb, global, ...(cwd ? { cwd } : {}), words };
}

const KEY = /^[a-z_]+(\.[A-Za-z0-9_-]+)+$/;

function at(value: unknown, path: readonly string[]): unknown {
  let v = value;
  for (const p of path)
    v = typeof v === "object" && v !== null ? (v as Record<string, unknown>)[p] : undefined;
  return v;
}

/** A value as typed: JSON when it parses (numbers, booleans, lists), else the text. */
function typedValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function setAt(doc: TomlTable, path: readonly string[], value: unknown): void {
  let t = doc;
  for (const p of path.slice(0, -1)) {
    const next = t[p];
    if (typeof next !== "object" || next === null) t[p] = {};
    t = t[p] as TomlTable;
  }
  if (value === undefined) delete t[path.at(-1) as string];
  else t[path.at(-1) as string] = value;
}

/**
 * `zeng config get KEY | set [-g] KEY VALUE | list [--cwd DIR]`: reads the effective settings
 * (dotted keys, `model.main`), or writes one key into the project's `.z-engine/settings.toml`
 * (`-g`: the user's settings.toml). A value the settings reject is put back and reported.
 * Resolves 0, 2 for bad usage or an unknown or rejected key, 1 when a file cannot be written.
 */
export async function runConfig(argv: readonly string[], io: Io, env: Env): Promise<number> {
  const args = parse(argv);
  if (typeof args === "string") {
    io.stderr(`zeng: config: ${args}\n`);
    return EXIT.usage;
  }
  const paths = resolvePaths(env);
  const projectRoot = resolve(args.cwd ?? process.cwd());
  const load = () =>
    loadSettings({ env, paths, projectRoot, trusted: new TrustStore(paths.trustFile) });
  if (args.verb === "list") {
    io.stdout(`${JSON.stringify(load().settings, null, 2)}\n`);
    return EXIT.ok;
  }
  const key = args.words[0] as string;
  if (!KEY.test(key)) {
    io.stderr(
      `zeng: config: ${JSON.stringify(key)} is not a settings key (section.key, e.g. model.main)\n`,
    );
    return EXIT.usage;
  }
  const path = key.split(".");
  if (args.verb === "get") {
    const value = at(load().settings, path);
    if (value === undefined) {
      io.stderr(`zeng: config: ${key} is not set\n`);
      return EXIT.usage;
    }
    io.stdout(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
    return EXIT.ok;
  }
  return setKey(args, path, projectRoot, io, env, load);
}

async function setKey(
  args: ConfigArgs,
  path: readonly string[],
  projectRoot: string,
  io: Io,
  env: Env,
  load: () => ReturnType<typeof loadSettings>,
): Promise<number> {
  const paths = resolvePaths(env);
  const edit = (mutate: (doc: TomlTable) => void) =>
    args.global
      ? editUserSettings(paths, mutate)
      : editProjectSettings(projectRoot, "settings", mutate);
  let previous: unknown;
  try {
    const { file } = await edit((doc) => {
      previous = at(doc, path);
      setAt(doc, path, typedValue(args.words[1] as string));
    });
    const key = path.join(".");
    const problem = load().problems.find((p) => p.file === file && p.key?.startsWith(key));
    if (problem) {
      await edit((doc) => setAt(doc, path, previous));
      io.stderr(`zeng: config: ${key}: ${problem.message} (not set)\n`);
      return EXIT.usage;
    }
    io.stdout(`Set ${key} in ${file}.\n`);
    return EXIT.ok;
  } catch (error) {
    io.stderr(`zeng: config set: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
}
