import type { TokenUsage, Usage } from "@z-engine/protocol";

/** Sizes and prices of a model. */
export interface ModelInfo {
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** Whether the model reads images (unknown models: true). */
  readonly vision: boolean;
}

/** What the engine needs of the model catalog: sizes and prices. */
export interface ModelCatalog {
  info(model: string): ModelInfo;
  /** Prices one response's tokens. Never throws (an unknown model costs 0). */
  price(model: string, usage: TokenUsage): Usage;
  /**
   * The model ids known for a provider (models.dev's key: `anthropic`, `openai`, ...), for
   * `/model`; absent when the host's catalog cannot list (then any id is taken). Never throws.
   */
  models?(provider: string): readonly string[];
}
