import type {
  ContentBlock,
  ModelMessage,
  SystemSection,
  TokenUsage,
  ToolSpec,
} from "@z-engine/protocol";

/** Options of a token estimator. */
export interface TokenEstimatorOptions {
  /** Characters per token before calibration (default 4). */
  readonly charsPerToken?: number;
  /** Tokens counted for an image (default 1600). */
  readonly imageTokens?: number;
  /** Weight of each new observation in the calibration ratio, 0..1 (default 0.5). */
  readonly smoothing?: number;
}

/** The parts of a request that count towards its input tokens. */
export interface EstimatedRequest {
  readonly system: readonly SystemSection[];
  readonly tools: readonly ToolSpec[];
  readonly messages: readonly ModelMessage[];
}

/**
 * Estimates token counts with a characters-per-token heuristic, calibrated by the input
 * tokens each response reports. Counts per message and per tool spec are cached by object
 * identity (they are immutable), so re-estimating a grown transcript is cheap.
 */
export interface TokenEstimator {
  /** The calibration ratio (reported / heuristic), starting at 1. */
  readonly ratio: number;
  estimateText(text: string): number;
  estimateMessage(message: ModelMessage): number;
  estimateMessages(messages: readonly ModelMessage[]): number;
  estimateRequest(request: EstimatedRequest): number;
  /**
   * Feeds back what a response reported for `request` (input plus cache read and write);
   * later estimates move towards it. Ignores empty requests and zero usage. Never throws.
   */
  observe(request: EstimatedRequest, usage: TokenUsage): void;
}

const MESSAGE_OVERHEAD_CHARS = 16;
const MIN_RATIO = 0.25;
const MAX_RATIO = 4;

function blockChars(block: ContentBlock, imageChars: number): number {
  switch (block.type) {
    case "text":
      return block.text.length;
    case "image":
      return imageChars;
    case "thinking":
      return block.thinking.length;
    case "redactedThinking":
      return block.data.length / 4;
    case "toolUse":
      return block.name.length + (JSON.stringify(block.input) ?? "").length;
    case "toolResult": {
      let chars = 0;
      for (const part of block.content)
        chars += part.type === "text" ? part.text.length : imageChars;
      return chars;
    }
  }
}

/** A new estimator; see `TokenEstimator`. */
export function createTokenEstimator(options: TokenEstimatorOptions = {}): TokenEstimator {
  const charsPerToken = options.charsPerToken ?? 4;
  const imageChars = (options.imageTokens ?? 1600) * charsPerToken;
  const smoothing = Math.min(1, Math.max(0, options.smoothing ?? 0.5));
  const messageChars = new WeakMap<object, number>();
  const toolChars = new WeakMap<object, number>();
  let ratio = 1;

  const charsOfMessage = (message: ModelMessage): number => {
    let chars = messageChars.get(message);
    if (chars === undefined) {
      chars = MESSAGE_OVERHEAD_CHARS;
      for (const block of message.content) chars += blockChars(block, imageChars);
      messageChars.set(message, chars);
    }
    return chars;
  };
  const charsOfTool = (tool: ToolSpec): number => {
    let chars = toolChars.get(tool);
    if (chars === undefined) {
      chars = tool.name.length + tool.description.length + JSON.stringify(tool.inputSchema).length;
      toolChars.set(tool, chars);
    }
    return chars;
  };
  const rawRequest = (request: EstimatedRequest): number => {
    let chars = 0;
    for (const section of request.system) chars += section.text.length;
    for (const tool of request.tools) chars += charsOfTool(tool);
    for (const message of request.messages) chars += charsOfMessage(message);
    return chars / charsPerToken;
  };

  return {
    get ratio() {
      return ratio;
    },
    estimateText: (text) => Math.ceil((text.length / charsPerToken) * ratio),
    estimateMessage: (message) => Math.ceil((charsOfMessage(message) / charsPerToken) * ratio),
    estimateMessages(messages) {
      let chars = 0;
      for (const message of messages) chars += charsOfMessage(message);
      return Math.ceil((chars / charsPerToken) * ratio);
    },
    estimateRequest: (request) => Math.ceil(rawRequest(request) * ratio),
    observe(request, usage) {
      const raw = rawRequest(request);
      const reported = usage.input + usage.cacheRead + usage.cacheWrite;
      if (raw <= 0 || reported <= 0) return;
      const observed = Math.min(MAX_RATIO, Math.max(MIN_RATIO, reported / raw));
      ratio = ratio * (1 - smoothing) + observed * smoothing;
    },
  };
}
