// One query's life: an engine and a session opened from the options, a turn per prompt, the
// SDK messages pushed to the channel the host reads, then everything closed.
import { realpath } from "node:fs/promises";
import {
  claudeResultMessage,
  createEngine,
  type Engine,
  runStructured,
  type SessionHandle,
  type SessionOptions,
  type TurnSummary,
} from "@z-engine/engine";
import type { EventEnvelope } from "@z-engine/protocol";
import { Channel } from "./channel.js";
import { AbortError } from "./errors.js";
import { initMessage } from "./init-message.js";
import { messageOf } from "./messages.js";
import { approvalAsker } from "./permissions.js";
import { engineMode, type SessionSetup, sessionSetup } from "./session-setup.js";
import { TurnFacts } from "./turn-facts.js";
import { promptTexts } from "./user-input.js";
import type { Options, PermissionMode, SDKMessage, SDKUserMessage } from "./types.js";

/** A query's prompt: one string, or the host's stream of user messages. */
export type Prompt = string | AsyncIterable<SDKUserMessage>;

/** Drives one query; the host reads `channel`, the controls reach the session. */
export class QueryRun {
  readonly channel = new Channel<SDKMessage>();
  private engine: Engine | undefined;
  private session: SessionHandle | undefined;
  private readonly facts = new TurnFacts();
  private readonly abort = new AbortController();
  private mode: PermissionMode;
  readonly setup: SessionSetup;
  private readonly asker: ReturnType<typeof approvalAsker>;
  private closed = false;
  /** Aborts when the query stops (closed by the host, or aborted): the prompt stream ends. */
  private readonly stopping = new AbortController();
  private opening: Promise<SessionHandle> | undefined;
  private opened!: { resolve: (s: SessionHandle) => void; reject: (e: unknown) => void };
  /** The open session once there is one (the controls wait for it). */
  readonly ready: Promise<SessionHandle>;

  constructor(
    private readonly prompt: Prompt,
    private readonly options: Options,
  ) {
    this.ready = new Promise((resolve, reject) => {
      this.opened = { resolve, reject };
    });
    // A control awaited after a failed open rejects there; unawaited, the rejection is not unhandled.
    this.ready.catch(() => {});
    this.setup = sessionSetup(options, (m) => this.warn(m));
    this.mode = options.permissionMode ?? "default";
    const external = options.abortController?.signal;
    if (external?.aborted) this.abort.abort();
    else external?.addEventListener("abort", () => this.abort.abort(), { once: true });
    this.abort.signal.addEventListener(
      "abort",
      () => {
        this.stopping.abort();
        this.session?.send({ type: "cancel" });
      },
      { once: true },
    );
    this.asker = approvalAsker({
      ...(options.canUseTool ? { canUseTool: options.canUseTool } : {}),
      dontAsk: () => this.mode === "dontAsk",
      signal: this.abort.signal,
      warn: (message) => this.warn(message),
    });
  }

  /** Runs the whole query; never rejects (a failure ends the channel with it). */
  async drive(): Promise<void> {
    let failure: unknown;
    try {
      this.opening = this.open();
      const session = await this.opening;
      this.opened.resolve(session);
      this.channel.push(await initMessage(session, this.setup, this.mode));
      const stop = this.stopping.signal;
      for await (const text of promptTexts(this.prompt, stop, (m) => this.warn(m))) {
        if (this.closed || this.abort.signal.aborted) break;
        await this.turn(session, text);
        if (this.abort.signal.aborted) break;
      }
      if (this.abort.signal.aborted) failure = new AbortError();
    } catch (error) {
      failure = error;
      this.opened.reject(error);
    } finally {
      await this.close();
      this.channel.end(failure);
    }
  }

  /** Stops the session and the engine (safe to call twice). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopping.abort();
    // An engine still opening is shut down once it is open (nothing is left running).
    await this.opening?.catch(() => {});
    await this.engine?.shutdown();
  }

  /** Stops the running turn. */
  interrupt(): void {
    this.session?.send({ type: "interrupt" });
  }

  setPermissionMode(mode: PermissionMode): void {
    const engine = engineMode(mode);
    this.mode = mode;
    this.session?.send({ type: "setMode", mode: engine });
  }

  private warn(message: string): void {
    this.options.stderr?.(`${message}\n`);
  }

  private async open(): Promise<SessionHandle> {
    const env = this.options.env ?? process.env;
    this.engine = await createEngine({
      env,
      settings: this.setup.settings,
      tools: this.setup.tools,
      headless: this.options.canUseTool === undefined,
      catalogSource: "off",
    });
    const sessionOptions: SessionOptions = {
      ...this.setup.overrides,
      onEvent: (envelope) => this.onEvent(envelope),
    };
    const root = await realpath(this.options.cwd ?? process.cwd());
    const id = this.options.continue
      ? (await this.engine.latestSession(root))?.id
      : this.options.resume;
    this.session =
      id === undefined
        ? await this.engine.createSession(root, sessionOptions)
        : this.options.forkSession
          ? await this.engine.forkSession(id, sessionOptions)
          : await this.engine.openSession(id, sessionOptions);
    return this.session;
  }

  private onEvent(envelope: EventEnvelope): void {
    this.facts.push(envelope);
    this.asker.onEvent(this.session, envelope);
    const e = envelope.event;
    if (e.type === "notice" && e.level !== "info") this.warn(`${e.code}: ${e.message}`);
    if (envelope.agentId !== undefined) return;
    const model = this.facts.model ?? this.options.model ?? "";
    const message = messageOf(envelope, model, this.options.includePartialMessages === true);
    if (message) this.channel.push(message);
  }

  private async turn(session: SessionHandle, text: string): Promise<void> {
    this.facts.reset();
    const schema = this.options.outputFormat?.schema;
    let summary: TurnSummary;
    let extra: { structuredOutput?: unknown; structuredError?: string } = {};
    if (schema) {
      const run = await runStructured(session, text, schema);
      summary = run.summary;
      if (run.output !== undefined) extra = { structuredOutput: run.output };
      else if (run.error) extra = { structuredError: run.error };
    } else summary = await session.run(text);
    const f = this.facts;
    this.channel.push(
      claudeResultMessage({
        ...summary,
        sessionId: session.id,
        text: f.text,
        numTurns: f.rounds,
        denials: [...f.denials],
        ...extra,
      }),
    );
  }
}
