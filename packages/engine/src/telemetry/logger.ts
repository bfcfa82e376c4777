import { findKnownKeys } from "../util/key-formats.js";
import { REDACTED, type Redactor } from "../util/secrets.js";

/** The fields of one log line (pino's "merging object"). */
export type LogFields = Record<string, unknown>;

/** One level's method: fields first, then the message (pino's `logger.info(obj, msg)`). */
export type LogMethod = (fields: LogFields, message?: string) => void;

/**
 * The logger a host gives the engine: the part of pino's interface the engine calls, so any
 * pino logger (or one shaped like it) fits. `child` returns a logger whose every line carries
 * `bindings`. The engine never calls a level the host's logger does not print cheaply: each
 * call is a plain method call, filtering is the logger's.
 */
export interface EngineLogger {
  child(bindings: LogFields): EngineLogger;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

/** `text` with every known secret value and every known-format key replaced by `[redacted]`. */
export function redactText(redactor: Redactor, text: string): string {
  let out = redactor.text(text);
  for (const { value } of findKnownKeys(out)) out = out.split(value).join(REDACTED);
  return out;
}

function redactValue(redactor: Redactor, value: unknown, depth: number): unknown {
  if (typeof value === "string") return redactText(redactor, value);
  if (value === null || typeof value !== "object" || depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => redactValue(redactor, item, depth + 1));
  if (value instanceof Error)
    return { name: value.name, message: redactText(redactor, value.message) };
  const out: LogFields = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactValue(redactor, v, depth + 1);
  return out;
}

/** A copy of `fields` with every string in it redacted (see {@link redactText}). */
export function redactFields(redactor: Redactor, fields: LogFields): LogFields {
  return redactValue(redactor, fields, 0) as LogFields;
}

/**
 * `logger` behind the secret screen: the fields, the message and a child's bindings of every
 * line pass through `redactor` (the session's secret values) and the known key formats first.
 */
export function redactingLogger(logger: EngineLogger, redactor: Redactor): EngineLogger {
  const level =
    (method: LogMethod): LogMethod =>
    (fields, message) =>
      message === undefined
        ? method.call(logger, redactFields(redactor, fields))
        : method.call(logger, redactFields(redactor, fields), redactText(redactor, message));
  return {
    child: (bindings) => redactingLogger(logger.child(redactFields(redactor, bindings)), redactor),
    debug: level(logger.debug),
    info: level(logger.info),
    warn: level(logger.warn),
    error: level(logger.error),
  };
}
