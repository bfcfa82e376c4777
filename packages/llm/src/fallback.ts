import type {
  ModelClient,
  ModelErrorKind,
  ModelEvent,
  ModelRequest,
  StreamOptions,
} from "@z-engine/protocol";
import { RelayStream, type Switch } from "./relay.js";

/** Failures another model cannot cure: the same key, the same prompt, or the user's cancel. */
const FINAL: ReadonlySet<ModelErrorKind> = new Set([
  "cancelled",
  "authentication",
  "contextOverflow",
]);

/**
 * Tries the request's model, then each fallback model in order, through the same client
 * (same provider and key). It moves on only when an attempt ends in an error before any
 * content (text, thinking or tool call) arrived, and not for cancellation, authentication
 * or context overflow; each move is announced by a `fallback` event. The last model's
 * outcome is final. Never throws.
 */
export class FallbackClient implements ModelClient {
  constructor(
    private readonly inner: ModelClient,
    private readonly fallbacks: readonly string[],
  ) {}

  stream(request: ModelRequest, options: StreamOptions = {}): AsyncIterable<ModelEvent> {
    const models = [request.model, ...this.fallbacks.filter((m) => m !== request.model)];
    let i = 0;
    return new RelayStream(
      () => this.inner.stream({ ...request, model: models[i] ?? request.model }, options),
      (error, content): Switch | undefined => {
        const from = models[i];
        const to = models[i + 1];
        if (content || from === undefined || to === undefined || FINAL.has(error.kind))
          return undefined;
        i++;
        return { announce: { type: "fallback", fromModel: from, toModel: to, error } };
      },
    );
  }
}
