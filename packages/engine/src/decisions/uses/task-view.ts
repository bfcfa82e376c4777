import { lazily } from "@z-engine/protocol";
import { z } from "zod";
import type { DecisionUse } from "../use.js";

const Answer = lazily(() =>
  z.object({ newTask: z.boolean(), notNeeded: z.array(z.number().int()).max(200) }),
);

const INSTRUCTIONS =
  'A user sends a coding agent the new request below, after the earlier exchanges listed by number. Does the request start another task? If it does, which earlier exchanges does the new task not need at all? Reply with JSON only: {"newTask": true | false, "notNeeded": [<exchange numbers>]}; when unsure, keep an exchange (leave it out of the list).';

/**
 * task_view (seam: turn start, applied once the request is saved): when the fast model says
 * the request starts another task, the earlier exchanges it says the task does not need are
 * set aside from what the model reads (an index message names them and the artifact that
 * holds them; the transcript keeps everything; `includeFullHistory` brings them back). Only
 * offered exchanges count (never the newest ones); a follow-up or an empty list abstains.
 */
export const taskView: DecisionUse<"turnStart"> = {
  name: "task_view",
  seam: "turnStart",
  module: "uses/task-view.ts",
  async decide(input, ctx) {
    if (input.exchanges.length === 0 || input.prompt.trim() === "") return undefined;
    const list = input.exchanges.map((e) => `${e.index}. ${e.prompt.split("\n")[0]}`).join("\n");
    const question = `Earlier exchanges:\n${list}\n\nNew request:\n${input.prompt.slice(0, 2000)}`;
    const answer = await ctx.sidecar.ask(INSTRUCTIONS, question, Answer, ctx.signal);
    if (!answer?.newTask) return undefined;
    const offered = new Set(input.exchanges.map((e) => e.index));
    const setAside = [...new Set(answer.notNeeded)].filter((i) => offered.has(i));
    return setAside.length > 0 ? { setAside } : undefined;
  },
  describe: (advice) => `set aside ${advice.setAside?.length ?? 0} exchange(s)`,
};
