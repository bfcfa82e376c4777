// A session in a child process, for the crash tests (crash-resume.test.ts): it runs one turn
// that is still busy when the test kills it with SIGKILL. Argument: a JSON object with
// `home`, `project`, `kind` ("tool": a Bash call that sleeps; "stream": a slow model stream;
// "question": an AskUserQuestion call that waits for an answer; "agent": a background agent
// whose second request stalls, while the main turn has ended)
// and `pidFile` (where the sleeping command writes its pid, so the test can reap it).
// Prints `event <type>` for every event and `session <id>` once the session exists, then
// waits to be killed.
import { join } from "node:path";
import { resolvePaths } from "@z-engine/config";
import { createEngine } from "@z-engine/engine";
import { reply, ScriptedModel, when } from "@z-engine/testkit";

const args = JSON.parse(process.argv[2] ?? "{}");
const env = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: args.home,
  ZENGINE_CONFIG_HOME: join(args.home, "config"),
  ZENGINE_HOME: join(args.home, "data"),
};
const slowText = Array.from({ length: 400 }, (_, i) => ({ type: "textDelta", text: `word${i} ` }));
const question = {
  questions: [
    {
      question: "Which database should the login use?",
      options: [{ label: "Postgres" }, { label: "SQLite" }],
      multiSelect: false,
    },
  ],
};
const script =
  args.kind === "question"
    ? [
        {
          events: [
            {
              type: "toolCall",
              id: "call_crash_question",
              name: "AskUserQuestion",
              input: question,
            },
          ],
        },
      ]
    : args.kind === "tool"
      ? [
          {
            events: [
              { type: "textDelta", text: "Running it." },
              {
                type: "toolCall",
                id: "call_crash_tool",
                name: "Bash",
                input: { command: `echo $$ > '${args.pidFile}'; exec sleep 30` },
              },
            ],
          },
        ]
      : [{ events: slowText, delayMs: 25 }];
const SUB = "CRASH-AGENT-MARKER";
const isSub = (r) => JSON.stringify(r.system).includes(SUB);
const agentScript = [
  when(
    (r) => !isSub(r),
    reply.toolCall("Agent", {
      description: "slow digging",
      prompt: "Dig slowly",
      subagent_type: "digger",
      run_in_background: true,
    }),
  ),
  when((r) => !isSub(r), reply.text("It runs in the background.")),
  when(
    isSub,
    reply.toolCall(
      "Read",
      { file_path: join(args.project, "src/auth/token.js") },
      { id: "call_sub_read" },
    ),
  ),
  when(isSub, { fault: { stall: true } }),
];
const model = new ScriptedModel(args.kind === "agent" ? agentScript : script);
const engine = await createEngine({
  paths: resolvePaths(env),
  env,
  homeDir: args.home,
  catalogSource: "off",
  clientFactory: () => model,
  onEvent: (envelope) => {
    const who = envelope.agentId ? "agent-event" : "event";
    process.stdout.write(`${who} ${envelope.event.type}\n`);
    if (envelope.agentId) process.stdout.write(`agent ${envelope.agentId}\n`);
  },
});
const session = await engine.createSession(args.project, { mode: "bypass" });
process.stdout.write(`session ${session.id}\n`);
void session.run("do the long thing");
setInterval(() => {}, 60_000);
