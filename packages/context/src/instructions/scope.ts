import { isAbsolute, relative } from "node:path";
import type { InstructionFs } from "./fs.js";

/**
 * Where instruction files and their `@path` imports may be read from: freely inside
 * `roots`, elsewhere only when `allowOutside` says so. Paths are compared after every
 * symlink is resolved, so a link inside a root that points out of it is outside.
 */
export interface InstructionScope {
  /** Absolute folders read freely: the repository (or project) and the user's config folder. */
  readonly roots: readonly string[];
  /**
   * Asked about a file outside the roots, with its real path and the path as written; true
   * lets it in. Absent: nothing outside the roots is read. A rejection counts as a refusal.
   */
  readonly allowOutside?: (realPath: string, writtenPath: string) => boolean | Promise<boolean>;
}

/** What {@link ScopeChecker.admit} found for one path. */
export type Admission =
  /** The file is there and may be read, from `real`. */
  | { readonly kind: "admitted"; readonly real: string }
  /** The file is there but outside the scope: it must not be read. */
  | { readonly kind: "refused"; readonly real: string }
  /** Nothing is there (or a dangling link). */
  | { readonly kind: "missing" };

/** Checks paths against one scope; the roots' own real paths are resolved once. */
export interface ScopeChecker {
  /** Resolves `path` and decides. Rejects only when the reader rejects (the door never does). */
  admit(path: string): Promise<Admission>;
}

function isWithin(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** A checker for `scope` over `fs`. */
export function createScopeChecker(scope: InstructionScope, fs: InstructionFs): ScopeChecker {
  let roots: Promise<string[]> | undefined;
  const realRoots = () => {
    roots ??= Promise.all(
      scope.roots.map(async (root) => [root, (await fs.realPath(root).catch(() => root)) ?? root]),
    ).then((pairs) => pairs.flat());
    return roots;
  };
  return {
    async admit(path) {
      const real = await fs.realPath(path);
      if (real === undefined) return { kind: "missing" };
      if ((await realRoots()).some((root) => isWithin(real, root)))
        return { kind: "admitted", real };
      const allowed = await Promise.resolve(scope.allowOutside?.(real, path) ?? false).catch(
        () => false,
      );
      return allowed ? { kind: "admitted", real } : { kind: "refused", real };
    },
  };
}

/** The note left in place of a refused file's text (by default: it is outside the project). */
export function refusedNote(written: string, why = "outside the project"): string {
  return `[import @${written} refused: ${why}]`;
}
