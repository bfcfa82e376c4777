import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { parse, TomlError } from "smol-toml";
import type { LayerLevel } from "./effective.js";
import { findKeyLine, type SettingsProblem } from "./problems.js";
import { type SectionName, SECTION_NAMES, Sections, SettingsFile } from "./schema.js";
import { convertV1 } from "./v1-import.js";
import { validateLeniently } from "./validate.js";

/** One settings source, parsed and validated (bad keys already left out). */
export interface SettingsLayer {
  readonly level: LayerLevel;
  /**
   * The file read; `env` for the environment layer. A v1 import names the settings.toml
   * it stands for (see `importedFrom`).
   */
  readonly file: string;
  /** The folder `/path` rules and relative folders in this layer resolve against. */
  readonly root: string;
  readonly values: SettingsFile;
  /** Set when the values were converted from this v1 config.toml. */
  readonly importedFrom?: string;
}

/** The largest settings file read (a larger one is a problem, not read). */
export const MAX_SETTINGS_FILE_BYTES = 1024 * 1024;

/**
 * Reads a settings file as UTF-8; undefined when it does not exist, a problem for other
 * errors. A project controls these files: one that is not a regular file (a FIFO would block
 * the session's open for ever, a device stream without end) or is over
 * {@link MAX_SETTINGS_FILE_BYTES} is a problem and is not read. Opened with `O_NONBLOCK`, so a
 * FIFO swapped in after the check cannot block either.
 */
export function readText(file: string, problems: SettingsProblem[]): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOCTTY ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      problems.push({ file, message: `cannot read: ${(error as Error).message}` });
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      problems.push({ file, message: "cannot read: not a regular file (skipped)" });
      return undefined;
    }
    if (info.size > MAX_SETTINGS_FILE_BYTES) {
      problems.push({
        file,
        message: `cannot read: ${info.size} bytes is over the ${MAX_SETTINGS_FILE_BYTES}-byte limit (skipped)`,
      });
      return undefined;
    }
    return readFileSync(fd, "utf8");
  } catch (error) {
    problems.push({ file, message: `cannot read: ${(error as Error).message}` });
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Parses TOML text; a syntax error is one problem (with its line) and skips the file. */
export function parseToml(
  file: string,
  source: string,
  problems: SettingsProblem[],
): Record<string, unknown> | undefined {
  try {
    return parse(source) as Record<string, unknown>;
  } catch (error) {
    const line = error instanceof TomlError ? error.line : undefined;
    const message = (error as Error).message.split("\n")[0] ?? "invalid TOML";
    problems.push({ file, line, message: `not valid TOML, file skipped: ${message}` });
    return undefined;
  }
}

/**
 * `SettingsFile.safeParse(parsed).data` when that succeeds, else undefined, parsing only the
 * sections the file has: each section's schema is built on its first use, and a file sets
 * few of them (schema.ts).
 */
export function parseSections(parsed: unknown): SettingsFile | undefined {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const given = parsed as Record<string, unknown>;
  if (Object.keys(given).some((key) => !SECTION_NAMES.includes(key as SectionName)))
    return undefined;
  const out: Record<string, unknown> = {};
  for (const name of SECTION_NAMES) {
    if (!Object.hasOwn(given, name)) continue;
    // An optional section given as undefined (no TOML file can) stays, as zod keeps it.
    if (given[name] === undefined) {
      out[name] = undefined;
      continue;
    }
    const section = Sections[name].safeParse(given[name]);
    if (!section.success) return undefined;
    out[name] = section.data;
  }
  return out as SettingsFile;
}

/**
 * Validates parsed settings leniently: each unknown or badly typed key, bad array entry
 * and permission rule of no known form is reported (file, line where found, key, reason) and left out.
 */
export function validateSettings(
  file: string,
  source: string,
  parsed: unknown,
  problems: SettingsProblem[],
  lineSource: string = source,
): SettingsFile {
  const report = (path: readonly string[], message: string) => {
    const line = findKeyLine(lineSource, path);
    const key = path.length > 0 ? path.join(".") : undefined;
    problems.push({ file, ...(line ? { line } : {}), ...(key ? { key } : {}), message });
  };
  // Most files are valid: a strict parse of the sections they set, and the key-by-key walk
  // only when it fails.
  const strict = parseSections(parsed);
  if (strict !== undefined) return strict;
  const result = validateLeniently(SettingsFile, parsed, [], report);
  return (result.ok ? result.value : {}) as SettingsFile;
}

/** Reads, parses and validates one v2 settings.toml; undefined when the file is missing. */
export function loadSettingsFile(
  file: string,
  problems: SettingsProblem[],
): SettingsFile | undefined {
  const source = readText(file, problems);
  if (source === undefined) return undefined;
  const parsed = parseToml(file, source, problems);
  if (parsed === undefined) return {};
  return validateSettings(file, source, parsed, problems);
}

/**
 * Reads a v1 config.toml and converts it to v2 settings (flat `section_key` names, see the
 * README), validated like a v2 file. Undefined when the file is missing or does not parse.
 */
export function loadV1File(file: string, problems: SettingsProblem[]): SettingsFile | undefined {
  const source = readText(file, problems);
  if (source === undefined) return undefined;
  const parsed = parseToml(file, source, problems);
  if (parsed === undefined) return undefined;
  const report = (path: readonly string[], message: string) => {
    problems.push({ file, line: findKeyLine(source, path), key: path.join("."), message });
  };
  const nested = convertV1(parsed, report);
  // Key lines are looked up by the v1 flat name, which is how the user wrote them.
  return validateSettings(file, source, nested, problems, "");
}
