import { relative, sep } from "node:path";
import { loadMapSnapshot, type RenderedMap, withoutFiles } from "@z-engine/context";
import type { ProjectFileReader } from "@z-engine/protocol";

/** A snapshot's map as the session may show it now. */
export interface CachedMap {
  readonly map: RenderedMap;
  readonly builtAt: number;
  /** Files the snapshot named that the door now refuses (denied, gone, moved): left out. */
  readonly dropped: number;
}

/**
 * The map an earlier session's build left in `file`, checked against the session's door now:
 * every file it names must still be a regular file at that real path inside the project that
 * the session's current Read rules let be read; the others' entries are left out. Null when
 * there is no usable snapshot (missing, damaged, for another folder or another budget) or
 * nothing is left. Never rejects.
 */
export async function loadCachedMap(
  file: string,
  root: string,
  budget: number,
  door: ProjectFileReader,
): Promise<CachedMap | null> {
  try {
    const snapshot = await loadMapSnapshot(file);
    if (!snapshot || snapshot.root !== root || snapshot.budget !== budget) return null;
    const admitted = await Promise.all(snapshot.paths.map((p) => door.admit(`${root}/${p}`)));
    const drop = new Set<string>();
    snapshot.paths.forEach((path, i) => {
      const a = admitted[i];
      if (!a?.ok || relative(root, a.realPath).split(sep).join("/") !== path) drop.add(path);
    });
    const map = drop.size > 0 ? withoutFiles(snapshot.map, drop) : snapshot.map;
    if (map.text === "") return null;
    return { map, builtAt: snapshot.builtAt, dropped: drop.size };
  } catch {
    return null;
  }
}

/** `promise`'s value, or `fallback` once `ms` passed first. Never rejects when `promise` does not. */
export function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
    timer.unref();
  });
  return Promise.race([promise, cap]).finally(() => clearTimeout(timer));
}
