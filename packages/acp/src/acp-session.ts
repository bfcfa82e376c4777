import {
  type AgentContext,
  type ClientCapabilities,
  type PromptRequest,
  type PromptResponse,
  RequestError,
  type SessionConfigOption,
  type SessionUpdate,
} from "@agentclientprotocol/sdk";
import type { SessionHandle } from "@z-engine/engine";
import { type EventEnvelope, newTurnId, type PermissionMode } from "@z-engine/protocol";
import { Interactions } from "./interactions.js";
import type { OrderedQueue } from "./ordered-queue.js";
import { promptSubmission } from "./prompt-content.js";
import { rewindArgs, runRewind } from "./rewind-command.js";
import { configOptions, modeOf, modeState } from "./session-config.js";
import { badgeMessage, promptResponse } from "./turn-end.js";
import { UpdateTranslator } from "./updates.js";

/** One thing to tell the client, in order: an engine event, a terminal, or an update of ours. */
export type QueueItem =
  | { readonly kind: "event"; readonly envelope: EventEnvelope }
  | { readonly kind: "terminal"; readonly toolCallId: string; readonly terminalId: string }
  | { readonly kind: "update"; readonly update: SessionUpdate };

/** What an ACP session is built from (see `openAcpSession`). */
export interface AcpSessionParts {
  readonly handle: SessionHandle;
  readonly client: AgentContext;
  readonly capabilities: ClientCapabilities;
  readonly queue: OrderedQueue<QueueItem>;
  readonly mode: PermissionMode;
  readonly model: string;
  readonly models: readonly string[];
  readonly onError: (error: unknown) => void;
}

/**
 * One engine session behind an ACP session: the engine's events become `session/update`s in
 * order (through one queue), its asks become permission requests, a prompt is a turn, and the
 * turn's outcome becomes the stop reason (with the badge as a last message and in `_meta`).
 */
export class AcpSession {
  readonly handle: SessionHandle;
  private readonly translator: UpdateTranslator;
  private readonly interactions: Interactions;
  private readonly queue: OrderedQueue<QueueItem>;
  private running: AbortController | undefined;
  private trustAsk: { projectRoot: string; withheld: readonly string[] } | undefined;
  private mode: PermissionMode;
  private model: string;

  constructor(private readonly parts: AcpSessionParts) {
    this.handle = parts.handle;
    this.queue = parts.queue;
    this.mode = parts.mode;
    this.model = parts.model;
    this.translator = new UpdateTranslator({
      notices: parts.capabilities.session?.notices != null,
    });
    this.interactions = new Interactions({
      client: parts.client,
      sessionId: parts.handle.id,
      send: (command) => void this.handle.send(command),
      update: (update) => this.send(update),
      onError: parts.onError,
    });
  }

  get id(): string {
    return this.handle.id;
  }

  /** Starts sending the session's own updates (once the client knows the session). */
  startUpdates(): void {
    this.queue.start();
  }

  /**
   * `session/set_config_option`: the mode or the model (one of those offered), applied in order
   * before the next prompt; resolves with the options as they now are. Throws `invalidParams`
   * for an unknown option or value.
   */
  setOption(configId: string, value: unknown): SessionConfigOption[] {
    if (configId === "mode") {
      const mode = typeof value === "string" ? modeOf(value) : undefined;
      if (!mode) throw RequestError.invalidParams(undefined, `unknown mode ${String(value)}`);
      this.mode = mode;
      this.handle.send({ type: "setMode", mode });
    } else if (configId === "model") {
      const offered = [this.model, ...this.parts.models];
      if (typeof value !== "string" || !offered.includes(value))
        throw RequestError.invalidParams(
          undefined,
          `the model must be one of ${offered.join(", ")}`,
        );
      this.model = value;
      this.handle.send({ type: "setModel", model: value });
    } else throw RequestError.invalidParams(undefined, `unknown option ${configId}`);
    return this.state().configOptions;
  }

  /** `modes` and `configOptions` of a session response. */
  state() {
    return {
      modes: modeState(this.mode),
      configOptions: configOptions(this.mode, this.model, this.parts.models),
    };
  }

  /** Handles one queued item: its updates, then its asks. Rejects when the client is gone. */
  async handleItem(item: QueueItem): Promise<void> {
    if (item.kind === "update") return this.send(item.update);
    if (item.kind === "terminal") {
      for (const u of this.translator.terminal(item.toolCallId, item.terminalId))
        await this.send(u);
      return;
    }
    const e = item.envelope.event;
    if (e.type === "approvalRequested")
      for (const u of this.translator.ensureAnnounced(e.toolCallId, e.toolName, e.title))
        await this.send(u);
    for (const update of this.translator.updates(item.envelope)) await this.send(update);
    switch (e.type) {
      case "approvalRequested":
        return this.interactions.approval(e);
      case "approvalResolved":
        return this.interactions.settled(e.approvalId);
      case "questionAsked":
        return this.interactions.question(e);
      case "questionAnswered":
        return this.interactions.settled(e.questionId);
      case "planProposed":
        return this.interactions.plan(e);
      case "planResolved":
        return this.interactions.settled(e.planId);
      case "trustRequired":
        this.trustAsk = { projectRoot: e.projectRoot, withheld: e.withheld };
        return;
      case "modeChanged":
      case "modelChanged":
        if (e.type === "modeChanged") this.mode = e.mode;
        else this.model = e.model;
        return this.send({
          sessionUpdate: "config_option_update",
          configOptions: this.state().configOptions,
        });
      case "turnFinished": {
        for (const u of this.translator.closeOpen("Cancelled: the turn ended.")) await this.send(u);
        const badge = badgeMessage({ ...e, turnId: e.turnId });
        if (badge) await this.send(badge);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Runs one prompt as a turn and resolves with its stop reason once every update of the turn
   * was sent. Rejects with `invalidRequest` while another prompt runs, and with an internal
   * error for a failed turn (its reason).
   */
  async prompt(request: PromptRequest): Promise<PromptResponse> {
    if (this.running) throw RequestError.invalidRequest(undefined, "a prompt is already running");
    const controller = new AbortController();
    this.running = controller;
    try {
      this.queue.start();
      await this.queue.flush();
      if (this.trustAsk) await this.askTrust(this.trustAsk, controller.signal);
      const { text, images } = promptSubmission(request.prompt);
      const rewind = rewindArgs(text);
      if (rewind) return await this.rewind(rewind);
      this.translator.lastStopReason = undefined;
      const turnId = newTurnId();
      const ended = this.handle.turnEnd(turnId);
      this.handle.send({ type: "submit", text, ...(images.length > 0 ? { images } : {}), turnId });
      const summary = await ended;
      await this.queue.flush();
      if (summary.outcome === null && summary.reason && !summary.reason.endsWith("without a turn"))
        await this.send({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: summary.reason },
        });
      return promptResponse(summary, this.translator.lastStopReason);
    } finally {
      this.running = undefined;
    }
  }

  /** `session/cancel`: the turn ends as cancelled, and every pending ask is cancelled. */
  cancel(): void {
    this.running?.abort();
    this.interactions.cancelAll();
    this.handle.send({ type: "cancel" });
  }

  /** Sends one update to the client now. Rejects when the connection is gone. */
  send(update: SessionUpdate): Promise<void> {
    return this.parts.client.notify("session/update", { sessionId: this.id, update });
  }

  private async askTrust(
    ask: { projectRoot: string; withheld: readonly string[] },
    signal: AbortSignal,
  ): Promise<void> {
    this.trustAsk = undefined;
    const trusted = await this.interactions.trust(ask.projectRoot, ask.withheld, signal);
    this.handle.send({ type: "trustWorkspace", trusted });
    await this.handle.idle();
  }

  private async rewind(args: readonly string[]): Promise<PromptResponse> {
    await this.handle.idle();
    const text = await runRewind(this.handle, args);
    await this.queue.flush();
    await this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
    return { stopReason: "end_turn" };
  }
}
