import type { Tool } from "../tool.js";
import { agentTool, applyAgentChangesTool } from "./agent.js";
import { bashTool } from "./bash.js";
import { editTool } from "./edit.js";
import { globTool } from "./glob.js";
import { grepTool } from "./grep.js";
import { askUserQuestionTool, exitPlanModeTool, todoWriteTool } from "./interaction.js";
import { jobKillTool, jobOutputTool } from "./jobs.js";
import { lspTool } from "./lsp.js";
import { multiEditTool } from "./multi-edit.js";
import { readTool } from "./read.js";
import { skillTool } from "./skill.js";
import { verifyTool } from "./verify.js";
import { webFetchTool } from "./web-fetch.js";
import { webSearchTool } from "./web-search.js";
import { writeTool } from "./write.js";

/**
 * The built-in tools of this package, in the order they are offered (Agent and
 * ApplyAgentChanges only where the engine gives the agents port, Skill only where the session
 * has skills: it needs the skills port). The MCP tools
 * come with their own issues. A fresh array
 * each call; the tools themselves are shared, stateless values.
 */
export function builtinTools(): Tool[] {
  return [
    readTool,
    writeTool,
    editTool,
    multiEditTool,
    globTool,
    grepTool,
    lspTool,
    bashTool,
    jobOutputTool,
    jobKillTool,
    webFetchTool,
    webSearchTool,
    todoWriteTool,
    askUserQuestionTool,
    exitPlanModeTool,
    verifyTool,
    agentTool,
    applyAgentChangesTool,
    skillTool,
  ];
}
