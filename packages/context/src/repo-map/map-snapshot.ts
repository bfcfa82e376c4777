import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { mapTokens, REPO_MAP_HEADER, type RenderedMap } from "./render.js";

/**
 * The last rendered map of a project, kept beside its tag cache so that a later session can
 * show it in its first request without building: the map, the budget it was rendered for,
 * when it was built, and the files it names (each to be checked again before it is shown).
 */
export interface MapSnapshot {
  /** The project folder the map was built for. */
  readonly root: string;
  /** `context.repo_map_tokens` when it was rendered. */
  readonly budget: number;
  /** When the build finished (ms since the epoch). */
  readonly builtAt: number;
  readonly map: RenderedMap;
  /** The project-relative paths the map names, in the map's order. */
  readonly paths: readonly string[];
}

const SNAPSHOT_VERSION = 1;

/** One file's part of a rendered map: its `path:` line and its definition lines. */
interface MapSection {
  readonly path: string;
  readonly text: string;
}

/** The sections of a rendered map's text, or null when it is not one (a damaged file). */
function sectionsOf(text: string): MapSection[] | null {
  const [header, ...parts] = text.split("\n\n");
  if (header !== REPO_MAP_HEADER) return null;
  const sections: MapSection[] = [];
  for (const part of parts) {
    const [first] = part.split("\n", 1);
    if (!first?.endsWith(":") || /^\s/.test(first)) return null;
    sections.push({ path: first.slice(0, -1), text: part });
  }
  return sections;
}

/** The files a rendered map names, in its order (empty for an empty or unreadable map). */
export function mapPaths(text: string): string[] {
  return (sectionsOf(text) ?? []).map((s) => s.path);
}

/**
 * `map` without the sections of the files in `drop`, measured again (tokens, files,
 * definitions). An empty map (no text) when nothing is left. Never throws.
 */
export function withoutFiles(map: RenderedMap, drop: ReadonlySet<string>): RenderedMap {
  const kept = (sectionsOf(map.text) ?? []).filter((s) => !drop.has(s.path));
  if (kept.length === 0) return { text: "", tokens: 0, files: 0, definitions: 0 };
  const text = [REPO_MAP_HEADER, ...kept.map((s) => s.text)].join("\n\n");
  const definitions = kept.reduce((n, s) => n + s.text.split("\n").length - 1, 0);
  return { text, tokens: mapTokens(text), files: kept.length, definitions };
}

/** The snapshot of `map`, rendered for `root` within `budget` and finished at `builtAt`. */
export function mapSnapshotOf(
  root: string,
  budget: number,
  builtAt: number,
  map: RenderedMap,
): MapSnapshot {
  return { root, budget, builtAt, map, paths: mapPaths(map.text) };
}

/**
 * Writes `snapshot` to `file` (its folder 0700, the file 0600: it holds lines of the
 * project's files), through a temporary file renamed over it, so a reader sees the old
 * snapshot or the new one. Resolves with a problem message when it cannot be written, else
 * null. Never rejects.
 */
export async function saveMapSnapshot(file: string, snapshot: MapSnapshot): Promise<string | null> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(tmp, JSON.stringify({ v: SNAPSHOT_VERSION, ...snapshot }), { mode: 0o600 });
    await rename(tmp, file);
    return null;
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    return `the repo map snapshot could not be written: ${(error as Error).message}`;
  }
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The snapshot in `data`, or null when anything about it is off. */
function parseSnapshot(data: unknown): MapSnapshot | null {
  if (typeof data !== "object" || data === null) return null;
  const d = data as Record<string, unknown>;
  const map = d.map as Record<string, unknown> | null | undefined;
  if (d.v !== SNAPSHOT_VERSION || typeof d.root !== "string" || !isCount(d.budget)) return null;
  if (typeof d.builtAt !== "number" || !Number.isFinite(d.builtAt)) return null;
  if (typeof map !== "object" || map === null || typeof map.text !== "string") return null;
  const paths = d.paths;
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === "string")) return null;
  const named = mapPaths(map.text);
  // The text is what is shown: the list must name exactly its files, or the file is damaged.
  if (named.length === 0 || named.join("\n") !== paths.join("\n")) return null;
  const measured = withoutFiles(
    { text: map.text, tokens: 0, files: 0, definitions: 0 },
    new Set<string>(),
  );
  return { root: d.root, budget: d.budget, builtAt: d.builtAt, map: measured, paths: named };
}

/**
 * Reads the snapshot in `file`. Resolves with null when there is none, or it is damaged, of
 * another version or not a map (a damaged file is never an error: it only costs a build).
 * Never rejects.
 */
export async function loadMapSnapshot(file: string): Promise<MapSnapshot | null> {
  try {
    return parseSnapshot(JSON.parse(await readFile(file, "utf8")));
  } catch {
    return null;
  }
}
