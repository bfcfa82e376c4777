// The part of @anthropic-ai/sdk that llm uses, the entry scripts/bundle-sdk.mjs bundles into
// dist/vendor/anthropic-sdk.js: the SDK's own client core (BaseAnthropic: options, retries,
// headers, fetch) with its Messages resource, made as the SDK's `Anthropic` class makes it,
// and the SDK's error classes. The whole SDK (its beta APIs, tool runners, agent toolsets,
// files, models, skills...) bundles to ~1.5 MB, this to ~0.4 MB: loading the bundle (reading,
// compiling, running it) is on a session's first request (issue 18).
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { Messages } from "@anthropic-ai/sdk/resources/messages";

/** `Anthropic` of @anthropic-ai/sdk with only `messages`. */
export class Anthropic extends BaseAnthropic {
  constructor(options) {
    super(options);
    this._supportsMessageThreads = true;
    this.messages = new Messages(this);
  }
}

export default Anthropic;
export * from "@anthropic-ai/sdk/core/error";
