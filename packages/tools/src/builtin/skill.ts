import { z } from "zod";
import { defineTool, lazySchema } from "../tool.js";
import { builtinInputJsonSchema } from "./input-json-schemas.js";
import { errorOutput, textOutput } from "../tool-output.js";
import { describe } from "./describe.js";

const SkillInput = lazySchema(() =>
  z.strictObject({
    name: z.string().min(1).describe("The skill's name, as the skills section lists it"),
  }),
);

/**
 * Skill: loads a skill's instructions (and where its other files are) through the session's
 * SkillPort. Offered only when the session has skills; for the gate it is a `skill` action,
 * so `Skill(name)` rules allow, ask or deny one skill.
 */
export const skillTool = defineTool({
  name: "Skill",
  description: describe(
    "Skill",
    "Loads a skill by name: its instructions for a specialised task, and where its other files are.",
  ),
  inputSchema: SkillInput,
  inputJsonSchema: builtinInputJsonSchema("Skill"),
  requires: ["skills"],
  isReadOnly: () => true,
  action: async (input) => [{ kind: "skill", name: input.name }],
  title: (input) => `Skill ${input.name}`,
  call: async (input, ctx) => {
    const port = ctx.ports.skills;
    if (!port) return errorOutput("No skills are available in this session.");
    const text = await port.load(input.name);
    if (text !== null) return textOutput(text);
    const known = port
      .list()
      .map((s) => s.name)
      .join(", ");
    return errorOutput(`Unknown skill "${input.name}". Skills: ${known || "none"}.`);
  },
});
