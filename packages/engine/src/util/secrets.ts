import { isSecretVariable } from "@z-engine/host";

// Which variables are secret is host's (the child-process door filters by it):
// `SECRET_VARIABLES`, `isSecretVariable` and `isProviderKeyVariable` are re-exported here.
export { isProviderKeyVariable, isSecretVariable, SECRET_VARIABLES } from "@z-engine/host";

/**
 * The environment shells, background jobs, checks and hook processes get: `env` without any
 * secret variable. One function, so that every child process of the engine sees the same.
 */
export function scrubbedEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && !isSecretVariable(name)) out[name] = value;
  return out;
}

/** Values shorter than this are not redacted (they would mangle ordinary text). */
const MIN_SECRET_LENGTH = 8;

/** The secret values of `env`, longest first, to redact. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && value.length >= MIN_SECRET_LENGTH && isSecretVariable(name))
      values.add(value);
  return [...values].sort((a, b) => b.length - a.length);
}

/** The text a redacted secret becomes. */
export const REDACTED = "[redacted]";

/** Replaces known secret values in text and in JSON-like values. */
export interface Redactor {
  /** `text` with every known secret replaced by `[redacted]`. */
  text(text: string): string;
  /** A copy of `value` with every string redacted; the same object when nothing changed. */
  value<T>(value: T): T;
}

/**
 * The base64 and base64url text of `secret` wherever it sits in a longer encoded stream: for
 * each of the three alignments, the characters whose bits come from the secret alone (so
 * `base64 < /proc/PID/environ` holds one of them whatever came before the key).
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>();
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString("base64");
    const form = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    forms.add(form);
    forms.add(form.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return [...forms];
}

/** `form` matched also when line breaks split it (`base64` wraps its output at 76 columns). */
function wrappedPattern(form: string): RegExp {
  const chars = [...form].map((c) => c.replace(/[+/-]/g, "\\$&"));
  return new RegExp(chars.join("(?:\\r?\\n)?"), "g");
}

function replaceAll(text: string, needles: readonly string[]): string {
  let out = text;
  for (const needle of needles) if (out.includes(needle)) out = out.split(needle).join(REDACTED);
  return out;
}

/**
 * A redactor for `secrets` (values shorter than 8 characters are ignored): each value, and
 * its base64 and base64url forms (also split across lines), becomes `[redacted]`.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const list = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH);
  const encoded = [...new Set(list.flatMap(encodedForms))].sort((a, b) => b.length - a.length);
  let patterns: { form: string; re: RegExp }[] | undefined;
  const text = (input: string): string => {
    let out = replaceAll(replaceAll(input, list), encoded);
    if (!out.includes("\n")) return out;
    const flat = out.replace(/\r?\n/g, "");
    if (!encoded.some((form) => flat.includes(form))) return out;
    patterns ??= encoded.map((form) => ({ form, re: wrappedPattern(form) }));
    for (const { form, re } of patterns) if (flat.includes(form)) out = out.replace(re, REDACTED);
    return out;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return text(value);
    if (Array.isArray(value)) {
      let changed = false;
      const next = value.map((item) => {
        const r = walk(item);
        if (r !== item) changed = true;
        return r;
      });
      return changed ? next : value;
    }
    if (value !== null && typeof value === "object") {
      let changed = false;
      const next: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const r = walk(v);
        if (r !== v) changed = true;
        next[k] = r;
      }
      return changed ? next : value;
    }
    return value;
  };
  return {
    text: list.length === 0 ? (t) => t : text,
    value: <T>(value: T): T => (list.length === 0 ? value : (walk(value) as T)),
  };
}
