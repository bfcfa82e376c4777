import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Skip = lazily(() => z.object({ skip: z.array(z.string()) }));

const INSTRUCTIONS =
  'A coding agent changed the files listed below. Name the checks that cannot cover any of them (a Python test run for a change to TypeScript only, say). Reply with JSON only: {"skip": ["<check id>", ...]}; an empty list when unsure.';

/**
 * check_select (seam: check select): the fast model names automatic checks that cannot
 * cover the changed paths. Only ids among the offered checks count, and advice that would
 * skip every check abstains: at least one check always runs.
 */
export const checkSelect: DecisionUse<"checkSelect"> = {
  name: "check_select",
  seam: "checkSelect",
  module: "uses/check-select.ts",
  async decide(input, ctx) {
    if (input.checkIds.length < 2) return undefined;
    const question = `Changed files:\n${input.changedPaths.slice(0, 200).join("\n")}\n\nChecks:\n${input.checkIds.join("\n")}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Skip, ctx.signal);
    const skip = input.checkIds.filter((id) => answer?.skip.includes(id));
    if (skip.length === 0 || skip.length >= input.checkIds.length) return undefined;
    return { skip };
  },
  describe: (advice) => `skip ${advice.skip.join(", ")}`,
};
