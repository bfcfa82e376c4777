import { writeFileSync } from "node:fs";
import { PRIVATE_FILE } from "../private-modes.js";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { CHECKPOINT_REF, type ShadowRepo } from "./shadow-repo.js";

/**
 * Stages the listed paths (NUL-separated on stdin, when `ZENG_UPDATE` is 1), writes the
 * index's tree and, when `ZENG_MESSAGE_FILE` is set, commits it on `ZENG_PARENT` (none when
 * empty) and moves the checkpoint ref with a compare-and-swap; prints the tree or the
 * commit. One spawn for what would otherwise be four.
 */
const SCRIPT = `set -e
if [ "$ZENG_UPDATE" = 1 ]; then git "$@" update-index -z --add --remove --replace --stdin; fi
tree=$(git "$@" write-tree)
if [ -z "$ZENG_MESSAGE_FILE" ]; then echo "$tree"; exit 0; fi
if [ -n "$ZENG_PARENT" ]; then
  commit=$(git "$@" commit-tree "$tree" -p "$ZENG_PARENT" -F "$ZENG_MESSAGE_FILE")
else
  commit=$(git "$@" commit-tree "$tree" -F "$ZENG_MESSAGE_FILE")
fi
git "$@" update-ref "${CHECKPOINT_REF}" "$commit" "$ZENG_PARENT"
echo "$commit"
`;

let messageFiles = 0;

function updateInput(update: readonly string[]): { env: Record<string, string>; input: string } {
  return update.length > 0
    ? { env: { ZENG_UPDATE: "1" }, input: `${update.join("\0")}\0` }
    : { env: { ZENG_UPDATE: "0" }, input: "" };
}

/**
 * Stages `update` (paths added, changed or deleted) into `indexFile` and resolves to the
 * tree it then holds. Rejects with a `HostError` (`gitFailed`) when git fails.
 */
export async function writeIndexTree(
  shadow: ShadowRepo,
  indexFile: string,
  update: readonly string[],
): Promise<string> {
  const { env, input } = updateInput(update);
  const out = await shadow.script("write the tree", SCRIPT, { indexFile, input, env });
  return out.stdout.toString("utf8").trim();
}

/**
 * Stages `update` into the shadow's index, commits its tree with `message` on `parent`
 * (null: the first snapshot) and moves the checkpoint ref only if it still points at
 * `parent`; resolves to the new commit. Rejects with a `HostError` (`gitFailed`) when git
 * fails, the ref having moved included.
 */
export async function commitIndex(
  shadow: ShadowRepo,
  update: readonly string[],
  message: string,
  parent: string | null,
): Promise<string> {
  // The message goes in a file: stdin carries the paths, and an argument has a size limit.
  const messageFile = join(shadow.gitDir, `ZENGINE_MESSAGE.${process.pid}.${messageFiles++}`);
  // Synchronous: one small file, written on the first tool's path (see ShadowRepo.writeInfo).
  writeFileSync(messageFile, message, { mode: PRIVATE_FILE });
  try {
    const { env, input } = updateInput(update);
    const out = await shadow.script("snapshot commit", SCRIPT, {
      input,
      env: { ...env, ZENG_MESSAGE_FILE: messageFile, ZENG_PARENT: parent ?? "" },
    });
    return out.stdout.toString("utf8").trim();
  } finally {
    await rm(messageFile, { force: true });
  }
}
