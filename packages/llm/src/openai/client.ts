import type OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ModelClient, ModelEvent, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { type ClientConfig, sdkOptions } from "../client-config.js";
import { pumpSdkStream } from "../sdk-stream.js";
import { OpenAiDecoder } from "./decode.js";
import { toOpenAiParams } from "./request.js";

type OpenAiModule = typeof import("openai");
let loading: Promise<OpenAiModule> | undefined;

/** Loads the OpenAI SDK once, on first use: its bundled copy (`#openai-sdk`, one file in dist/vendor). */
export function loadOpenAiSdk(): Promise<OpenAiModule> {
  loading ??= import("#openai-sdk");
  return loading;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/**
 * A `ModelClient` for OpenAI-compatible chat completions (OpenAI, OpenRouter, Gemini, Ollama,
 * LM Studio, custom servers) on the `openai` SDK (loaded on the first stream). Without a key
 * it sends no `Authorization` header (local servers need none). One attempt per call: wrap
 * it with `withRetry`. Never throws; every stream ends with one terminal event.
 */
export class OpenAiCompatibleClient implements ModelClient {
  private sdk: Promise<OpenAI> | undefined;
  private readonly cacheControl: boolean;
  private readonly maxCompletionTokens: boolean;

  constructor(private readonly config: ClientConfig) {
    const host = hostOf(config.baseUrl);
    this.cacheControl =
      config.cacheControl ?? (host === "openrouter.ai" || host.endsWith(".openrouter.ai"));
    this.maxCompletionTokens = host === "api.openai.com";
  }

  stream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<ModelEvent> {
    const params = toOpenAiParams(
      { ...request, model: request.model || (this.config.model ?? "") },
      { cacheControl: this.cacheControl, maxCompletionTokens: this.maxCompletionTokens },
    );
    return pumpSdkStream<ChatCompletionChunk>(
      async (signal) => (await this.client()).chat.completions.create(params, { signal }),
      new OpenAiDecoder(),
      {
        signal: options.signal,
        idleTimeoutMs: this.config.idleTimeoutMs,
        prepare: () => this.client(),
        onSent: options.onSent,
        baseUrl: this.config.baseUrl,
      },
    );
  }

  private client(): Promise<OpenAI> {
    this.sdk ??= loadOpenAiSdk().then(({ default: Sdk }) => {
      const base = sdkOptions(this.config);
      const key = this.config.apiKey;
      return new Sdk({
        ...base,
        apiKey: key ?? "",
        organization: null,
        project: null,
        webhookSecret: null,
        // No key: drop the Authorization header rather than send an empty one.
        ...(key ? {} : { defaultHeaders: { ...base.defaultHeaders, Authorization: null } }),
      });
    });
    return this.sdk;
  }
}
