import type { EngineSession } from "../session/session.js";
import type { OpenContext } from "../session/open-context.js";
import type { SessionOverrides } from "../settings/session-config.js";

/** What a query reads of a session a host holds: the session, the engine's context, its overrides. */
export interface QueryTarget {
  readonly session: EngineSession;
  readonly ctx: OpenContext;
  readonly overrides: SessionOverrides;
}

// Keyed by the handle object (typed loosely here: engine.ts imports this file, not the reverse).
const targets = new WeakMap<object, QueryTarget>();

/** Called by the engine for each handle it gives out, so the queries can reach its session. */
export function registerHandle(handle: object, target: QueryTarget): void {
  targets.set(handle, target);
}

/** An operational failure of a query: a handle from no engine, or a session already closed. */
export class QueryError extends Error {
  constructor(
    readonly code: "unknownHandle" | "closed",
    message: string,
  ) {
    super(message);
    this.name = "QueryError";
  }
}

/** The session behind a handle. Throws a `QueryError` for a handle the engine did not make. */
export function targetOf(handle: object): QueryTarget {
  const target = targets.get(handle);
  if (!target) throw new QueryError("unknownHandle", "this handle was not made by an engine");
  return target;
}
