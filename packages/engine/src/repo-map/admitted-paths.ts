import { relative, sep } from "node:path";
import { languageOf } from "@z-engine/context";
import type { ProjectFileReader, ProjectFileRefused } from "@z-engine/protocol";

/** Files looked at together (the door's checks run on libuv's threads, off the session's). */
const CHUNK = 256;
/** Refusals named in the notice; the rest are counted. */
const NAMED = 3;

/** What the door let into the map, and what it kept out. */
export interface AdmittedPaths {
  /** Project-relative real paths (`/`-separated), sorted, each once. */
  readonly paths: string[];
  /** The refusals, for a notice (a missing file is not one: the listing was only older). */
  readonly refused: readonly ProjectFileRefused[];
}

/**
 * Passes the listed paths of mapped languages through the project's door: each is resolved to
 * its real path and kept only when that is a regular file inside the project, with no other
 * hard links, that the session's Read rules let be read without asking. Kept files are named
 * by their real paths (a link inside the project maps as the file it leads to), so the map's
 * reader never follows a link. Never rejects.
 */
export async function admittedPaths(
  root: string,
  listed: readonly string[],
  door: ProjectFileReader,
): Promise<AdmittedPaths> {
  const wanted = listed.filter((p) => languageOf(p) !== null);
  const kept = new Set<string>();
  const refused: ProjectFileRefused[] = [];
  for (let from = 0; from < wanted.length; from += CHUNK) {
    const chunk = wanted.slice(from, from + CHUNK);
    const admitted = await Promise.all(chunk.map((p) => door.admit(`${root}/${p}`)));
    for (const a of admitted) {
      if (!a.ok) {
        if (a.reason !== "missing") refused.push(a);
        continue;
      }
      const rel = relative(root, a.realPath);
      if (rel !== "" && !rel.startsWith("..")) kept.add(rel.split(sep).join("/"));
    }
  }
  return { paths: [...kept].sort(), refused };
}

/** The notice for files the door kept out of the map, or undefined when there are none. */
export function refusedNotice(refused: readonly ProjectFileRefused[]): string | undefined {
  if (refused.length === 0) return undefined;
  const named = refused.slice(0, NAMED).map((r) => r.message);
  const more = refused.length > NAMED ? `; and ${refused.length - NAMED} more` : "";
  const files = refused.length === 1 ? "1 file" : `${refused.length} files`;
  return `the repo map left out ${files} it may not read: ${named.join("; ")}${more}`;
}
