import { readFile } from "node:fs/promises";
import { parse as parseForPatch, patch } from "@decimalturn/toml-patch";
import { writeFileAtomic } from "./atomic-write.js";
import { ConfigError } from "./errors.js";
import { renderSettings } from "./layers.js";
import type { Paths } from "./paths.js";
import type { EditResult, TomlTable } from "./persist.js";

/**
 * Edits the user's settings.toml (`zeng config set -g`, `zeng mcp add -s user`): `mutate`
 * changes the parsed document in place and only the difference is written, so comments,
 * order and other keys survive; a missing file is created. Rejects with ConfigError
 * `SETTINGS_UNPARSEABLE` (the file is not valid TOML; left as it is) or `WRITE_FAILED`.
 */
export async function editUserSettings(
  paths: Paths,
  mutate: (doc: TomlTable) => void,
): Promise<EditResult> {
  const file = paths.userSettingsFile;
  let source: string | undefined;
  try {
    source = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      throw new ConfigError("WRITE_FAILED", `cannot read ${file}`, { cause: error });
  }
  let output: string;
  if (source === undefined) {
    const doc: TomlTable = {};
    mutate(doc);
    output = renderSettings(doc);
  } else {
    let doc: TomlTable;
    try {
      doc = parseForPatch(source) as TomlTable;
    } catch (cause) {
      throw new ConfigError("SETTINGS_UNPARSEABLE", `${file} is not valid TOML; not editing it`, {
        cause,
      });
    }
    mutate(doc);
    output = patch(source, doc);
  }
  try {
    await writeFileAtomic(file, output);
  } catch (cause) {
    throw new ConfigError("WRITE_FAILED", `cannot write ${file}`, { cause });
  }
  return { file, created: source === undefined };
}
