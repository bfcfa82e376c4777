import type { PermissionMode } from "@z-engine/protocol";
import type { Action } from "./action.js";
import type { CompiledRule } from "./compile.js";
import {
  type DecideContext,
  type Decision,
  type Env,
  type ToolCall,
  makeEnv,
  ruleLabel,
} from "./context.js";
import { decideCommand } from "./decide-command.js";
import { decidePaths, toolRule } from "./decide-paths.js";
import { matchAgent, matchDomain, matchMcp, matchSkill } from "./match.js";
import { type PermissionRules, indexRules, type ListIndex } from "./rule-index.js";
import { suggestDomainRule, suggestMcpRule } from "./suggest.js";
import { allow, ask, combine, deny, planDenial } from "./verdict.js";

/**
 * Decides a tool call: each action is decided on its own (deny rules, then plan mode, then
 * ask rules, then bypass, allow rules and the mode's default) and the results combine
 * deny > ask > allow. Pure and synchronous; never throws. A call with no actions is allowed.
 */
export function decide(
  call: ToolCall,
  mode: PermissionMode,
  rules: PermissionRules,
  context: DecideContext,
): Decision {
  const env = makeEnv(call.toolName, mode, indexRules(rules), context);
  if (call.actions.length === 1) return decideAction(env, call.actions[0] as Action);
  return combine(call.actions.map((a) => decideAction(env, a)));
}

function decideAction(env: Env, action: Action): Decision {
  switch (action.kind) {
    case "read":
      return decidePaths(env, "read", action.paths, action.hardLinked === true);
    case "write":
      return decidePaths(env, "write", action.paths);
    case "command":
      return decideCommand(env, action.command, action.cwd, action.realPaths, action.hardLinked);
    case "network":
      return decideRuled(env, {
        what: `fetch ${action.url}`,
        readOnly: true,
        match: (list) => matchDomain(list, action.domain),
        fallback: () =>
          ask(`fetching ${action.url} needs approval`, [suggestDomainRule(action.domain)]),
      });
    case "mcp":
      return decideRuled(env, {
        what: `call the MCP tool ${action.tool} of ${action.server}`,
        readOnly: action.readOnly === true,
        match: (list) => matchMcp(list, action.server, action.tool),
        fallback: () =>
          ask(`the MCP tool ${action.server}/${action.tool} needs approval`, [
            suggestMcpRule(action.server, action.tool),
          ]),
      });
    case "agent":
      return decideRuled(env, {
        what: `start a ${action.agentType} agent`,
        readOnly: true,
        match: (list) => matchAgent(list, action.agentType),
        fallback: () => allow("starting an agent needs no approval (its own calls pass the gate)"),
      });
    case "skill":
      return decideRuled(env, {
        what: `load the skill ${action.name}`,
        readOnly: true,
        match: (list) => matchSkill(list, action.name),
        fallback: () => allow("loading a skill needs no approval"),
      });
    case "askUser":
    case "none":
      return decideRuled(env, {
        what: `use ${env.toolName}`,
        readOnly: true,
        match: () => undefined,
        fallback: () =>
          allow(action.kind === "askUser" ? "asking the user is always allowed" : "no effect"),
      });
  }
}

interface Ruled {
  /** What the action does, for messages ("fetch https://..."). */
  readonly what: string;
  /** Whether plan mode lets it run. */
  readonly readOnly: boolean;
  /** The first rule of a list matching the action (the bare tool rule is checked first). */
  readonly match: (list: ListIndex) => CompiledRule | undefined;
  /** The decision when no rule matched and the mode does not decide. */
  readonly fallback: () => Decision;
}

/** The common order for actions decided by rules alone: deny, plan, ask, bypass, allow, default. */
function decideRuled(env: Env, r: Ruled): Decision {
  const find = (list: ListIndex) => toolRule(env, list) ?? r.match(list);
  const denied = find(env.index.deny);
  if (denied) return deny(`${r.what} is denied by ${ruleLabel(denied)}`);
  if (env.mode === "plan" && !r.readOnly) return planDenial(r.what);
  if (env.mode !== "bypass") {
    const asked = find(env.index.ask);
    if (asked) return ask(`${r.what} needs approval (${ruleLabel(asked)})`);
  }
  if (env.mode === "bypass") return allow("bypass mode");
  const allowed = find(env.index.allow);
  if (allowed) return allow(`allowed by ${ruleLabel(allowed)}`);
  return r.fallback();
}
