import { writeFileAtomic } from "./atomic-write.js";
import { ConfigError } from "./errors.js";
import type { Paths } from "./paths.js";
import { type EditResult, editedText, readOrUndefined, type TomlTable } from "./persist.js";

/**
 * Edits the user's settings.toml (`zeng config set -g`, `zeng mcp add -s user`): `mutate`
 * changes the parsed document in place and only the difference is written, so comments,
 * order and other keys survive; a missing file is created. Rejects with ConfigError
 * `settingsUnparseable` (the file is not valid TOML; left as it is) or `writeFailed`.
 */
export async function editUserSettings(
  paths: Paths,
  mutate: (doc: TomlTable) => void,
): Promise<EditResult> {
  const file = paths.userSettingsFile;
  const source = await readOrUndefined(file);
  const output = editedText(file, source, () => ({}), mutate);
  try {
    await writeFileAtomic(file, output);
  } catch (cause) {
    throw new ConfigError("writeFailed", `cannot write ${file}`, { cause });
  }
  return { file, created: source === undefined };
}
