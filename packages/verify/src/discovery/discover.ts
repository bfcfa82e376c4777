import { join } from "node:path";
import {
  type CheckDefinition,
  type CheckId,
  checkId,
  type ProjectFileReader,
} from "@z-engine/protocol";
import { VerifyError } from "../errors.js";
import type { DiscoveryContext, Ecosystem } from "./ecosystem.js";
import { cargoEcosystem } from "./ecosystems/cargo.js";
import { denoEcosystem } from "./ecosystems/deno.js";
import { goEcosystem } from "./ecosystems/go.js";
import { gradleEcosystem, mavenEcosystem } from "./ecosystems/jvm.js";
import { cmakeEcosystem, dotnetEcosystem } from "./ecosystems/native.js";
import { npmEcosystem } from "./ecosystems/npm.js";
import { pythonEcosystem } from "./ecosystems/python.js";
import { justEcosystem, makeEcosystem } from "./ecosystems/tasks.js";
import { describe, type Folder, walkProject } from "./walk.js";

/** Every built-in ecosystem module, in the order a folder's checks are listed. */
export const ECOSYSTEMS: readonly Ecosystem[] = [
  cargoEcosystem,
  npmEcosystem,
  pythonEcosystem,
  goEcosystem,
  gradleEcosystem,
  mavenEcosystem,
  dotnetEcosystem,
  cmakeEcosystem,
  makeEcosystem,
  justEcosystem,
  denoEcosystem,
];

/** Folder names never entered (besides hidden folders, which are never entered either). */
export const DEFAULT_IGNORED_DIRS: readonly string[] = [
  "node_modules",
  "target",
  "dist",
  "build",
  "out",
  "vendor",
  "venv",
  "__pycache__",
  "site-packages",
  "bin",
  "obj",
  "coverage",
];

/** A build file discovery could not use, with why. The rest of the discovery still applies. */
export interface DiscoveryProblem {
  /** Relative to the project root. */
  readonly path: string;
  readonly message: string;
}

export interface DiscoveryResult {
  /** Sorted by folder (root first), then ecosystem order, then each module's own order. */
  readonly checks: CheckDefinition[];
  readonly problems: DiscoveryProblem[];
}

export interface DiscoverOptions {
  /**
   * How build files and folders are read: the project-files door (real paths inside the
   * project, no link followed, regular files only, bounded reads, the Read rules). Required:
   * discovery reads nothing with `node:fs` itself.
   */
  readonly files: ProjectFileReader;
  /** How many folders below the root to look (default 4; 0 looks at the root only). */
  readonly maxDepth?: number;
  /** Folder names to skip, replacing {@link DEFAULT_IGNORED_DIRS}. */
  readonly ignoreDirs?: readonly string[];
  /** Ecosystem modules to use, replacing {@link ECOSYSTEMS}. */
  readonly ecosystems?: readonly Ecosystem[];
  /** Build files larger than this are skipped and reported (default 1 MiB). */
  readonly maxFileBytes?: number;
  readonly signal?: AbortSignal;
}

interface ReadPlace {
  readonly files: ProjectFileReader;
  readonly cache: Map<string, Promise<string | undefined>>;
  readonly problems: DiscoveryProblem[];
  readonly maxFileBytes: number;
}

function createContext(
  folder: Folder,
  folders: ReadonlyMap<string, Folder>,
  { files, cache, problems, maxFileBytes }: ReadPlace,
): DiscoveryContext {
  const at = (name: string, f: Folder) => (f.rel === "." ? name : `${f.rel}/${name}`);
  const problem = (path: string, message: string) => {
    if (!problems.some((p) => p.path === path && p.message === message))
      problems.push({ path, message });
  };
  return {
    folder,
    folders,
    problem: (name, message) => problem(at(name, folder), message),
    read(name, inFolder = folder) {
      const rel = at(name, inFolder);
      let text = cache.get(rel);
      if (text === undefined) {
        text = readSmall(files, join(inFolder.abs, name), maxFileBytes).then((read) => {
          if (typeof read === "string") return read;
          if (read) problem(rel, read.problem);
          return undefined;
        });
        cache.set(rel, text);
      }
      return text;
    },
  };
}

/** A build file's text, nothing (not there, not a regular file), or the problem to report. */
async function readSmall(
  files: ProjectFileReader,
  path: string,
  maxBytes: number,
): Promise<string | { problem: string } | undefined> {
  const read = await files.readText(path, { maxBytes });
  if (read.ok) return read.text;
  if (read.reason === "missing" || read.reason === "notRegular") return undefined;
  if (read.reason === "tooLarge") return { problem: `skipped: over the ${maxBytes}-byte limit` };
  return { problem: `skipped: ${read.message}` };
}

/**
 * Finds the project's checks by reading build files, never running anything, from the root
 * down to `maxDepth` folders. Each check gets the id `ecosystem:name` (with `@folder` below
 * the root), its working folder and source `discovered`. Files that cannot be read or
 * parsed become `problems`; an unreadable root rejects with a `VerifyError`
 * (`rootUnreadable`). When `signal` aborts, rejects with a `VerifyError` (`aborted`).
 */
export async function discoverChecks(
  projectRoot: string,
  options: DiscoverOptions,
): Promise<DiscoveryResult> {
  const ignore = new Set(options.ignoreDirs ?? DEFAULT_IGNORED_DIRS);
  let walked: Awaited<ReturnType<typeof walkProject>>;
  try {
    walked = await walkProject(projectRoot, options.files, {
      maxDepth: options.maxDepth ?? 4,
      ignoreDirs: ignore,
      signal: options.signal,
    });
  } catch (error) {
    throw new VerifyError(
      "rootUnreadable",
      `cannot read ${projectRoot}: ${describe(error)}`,
      error,
    );
  }
  const problems: DiscoveryProblem[] = [...walked.problems];
  const byRel = new Map(walked.folders.map((f) => [f.rel, f]));
  const place: ReadPlace = {
    files: options.files,
    cache: new Map(),
    problems,
    maxFileBytes: options.maxFileBytes ?? 1 << 20,
  };
  const ecosystems = options.ecosystems ?? ECOSYSTEMS;
  const perFolder = await Promise.all(
    walked.folders.map(async (folder) => {
      const ctx = createContext(folder, byRel, place);
      const found = await Promise.all(
        ecosystems.filter((e) => e.applies(folder)).map((e) => e.discover(ctx)),
      );
      return found.flat().map(
        (check): CheckDefinition => ({
          id: checkId(check.ecosystem, check.name, folder.rel),
          kind: check.kind,
          command: check.command,
          cwd: folder.rel,
          source: "discovered",
        }),
      );
    }),
  );
  if (options.signal?.aborted)
    throw new VerifyError("aborted", "discovery was aborted", options.signal.reason);
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { checks: dedupe(perFolder.flat()), problems };
}

/** Later checks with an id already seen are dropped (two modules naming the same check). */
function dedupe(checks: CheckDefinition[]): CheckDefinition[] {
  const seen = new Set<string>();
  return checks.filter((c) => {
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    return true;
  });
}

/**
 * The checks the agent can run: the discovered ones, each replaced in place by a
 * configured check with the same id, then the configured checks with new ids in their
 * given order (a later configured check replaces an earlier one with its id). Pure.
 * In an untrusted project the caller passes only the user layer's configured checks.
 */
export function mergeChecks(
  discovered: readonly CheckDefinition[],
  configured: readonly CheckDefinition[],
): CheckDefinition[] {
  const byId = new Map<CheckId, CheckDefinition>();
  for (const check of configured) byId.set(check.id, check);
  const merged = discovered.map((check) => byId.get(check.id) ?? check);
  const present = new Set(discovered.map((c) => c.id));
  for (const [id, check] of byId) if (!present.has(id)) merged.push(check);
  return merged;
}
