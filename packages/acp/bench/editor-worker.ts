// The overhead bench's editor: the ACP SDK's client side in a worker thread (so its decoding
// of every update is not the main thread's), driven by the main thread over `control`:
// "new" opens a session and answers "ready"; "go" prompts it and answers "done" once the
// response came and the session is closed.
import { type MessagePort, workerData } from "node:worker_threads";
import { ndJsonStream } from "@agentclientprotocol/sdk";
import { connectAcpTestClient } from "@z-engine/testkit";
import { portStreams } from "./port-stream.js";

const { bytes, control, cwd } = workerData as {
  bytes: MessagePort;
  control: MessagePort;
  cwd: string;
};
const pipe = portStreams(bytes);
const editor = connectAcpTestClient(ndJsonStream(pipe.writable, pipe.readable));
await editor.agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
let sessionId = "";
control.on("message", async (message: string) => {
  if (message === "new") {
    sessionId = (await editor.agent.request("session/new", { cwd, mcpServers: [] })).sessionId;
    control.postMessage("ready");
  } else if (message === "go") {
    const response = await editor.agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "go" }],
    });
    await editor.agent.request("session/close", { sessionId });
    control.postMessage(
      response.stopReason === "end_turn" ? "done" : `ended ${response.stopReason}`,
    );
  } else if (message === "close") {
    await editor.close();
    control.close();
    bytes.close();
  }
});
control.postMessage("up");
