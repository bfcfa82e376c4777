import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { ModelClient, ModelEvent, ModelRequest, StreamOptions } from "@z-engine/protocol";
import { type ClientConfig, sdkOptions } from "../client-config.js";
import { pumpSdkStream } from "../sdk-stream.js";
import { AnthropicDecoder } from "./decode.js";
import { toAnthropicParams } from "./request.js";

type AnthropicModule = typeof import("#anthropic-sdk");
type Anthropic = InstanceType<AnthropicModule["default"]>;
let loading: Promise<AnthropicModule> | undefined;

/**
 * Loads the Anthropic SDK once, on first use: the bundled part of it this package uses
 * (`#anthropic-sdk`, one file in dist/vendor: the client core, `messages` and the error
 * classes; the SDK's ~330 files unbundled cost ~150-250 ms on Node 20).
 */
export function loadAnthropicSdk(): Promise<AnthropicModule> {
  loading ??= import("#anthropic-sdk");
  return loading;
}

/**
 * A `ModelClient` for the Anthropic Messages API on `@anthropic-ai/sdk` (loaded on the first
 * stream). It makes exactly one attempt per call: wrap it with `withRetry` for retries.
 * Never throws; every stream ends with one terminal event (see `ModelClient`).
 */
export class AnthropicClient implements ModelClient {
  private sdk: Promise<Anthropic> | undefined;

  constructor(private readonly config: ClientConfig) {}

  stream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<ModelEvent> {
    if (!this.config.apiKey) return missingKey(this.config.baseUrl);
    const params = toAnthropicParams({
      ...request,
      model: request.model || (this.config.model ?? ""),
    });
    return pumpSdkStream<RawMessageStreamEvent>(
      async (signal) => (await this.client()).messages.create(params, { signal }),
      new AnthropicDecoder(),
      {
        signal: options.signal,
        idleTimeoutMs: this.config.idleTimeoutMs,
        prepare: () => this.client(),
        onSent: options.onSent,
        baseUrl: this.config.baseUrl,
      },
    );
  }

  private client(): Promise<Anthropic> {
    this.sdk ??= loadAnthropicSdk().then(
      ({ default: Sdk }) =>
        new Sdk({ ...sdkOptions(this.config), apiKey: this.config.apiKey ?? null }),
    );
    return this.sdk;
  }
}

async function* missingKey(baseUrl: string): AsyncGenerator<ModelEvent> {
  yield {
    type: "error",
    error: {
      kind: "authentication",
      message: `no API key for ${hostOf(baseUrl)}: set ZENGINE_API_KEY or ANTHROPIC_API_KEY, or store one in auth.json`,
    },
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
