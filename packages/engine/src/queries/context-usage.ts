import { toolSpec } from "@z-engine/tools";
import type { EngineSession } from "../session/session.js";

/** The estimated size of what the next request sends, against the model's window. */
export interface ContextUsage {
  /** Estimated tokens: system sections, tool definitions and the conversation. */
  readonly used: number;
  readonly window: number;
  /** `window - used`, never below 0. */
  readonly left: number;
}

/** What the next request of the main agent holds, estimated as `/context` does. Never throws. */
export function contextUsage(session: EngineSession): ContextUsage {
  const e = session.estimator;
  const window = session.catalog.info(session.model).contextWindow;
  const tools = [...session.tools.map(toolSpec), ...session.mcp.requestSpecs()];
  const used =
    e.estimateRequest({ system: session.system, tools, messages: [] }) +
    e.estimateMessages(session.workingSet());
  return { used, window, left: Math.max(0, window - used) };
}
