// The types of `#anthropic-sdk` (package.json "imports"): the bundled part of
// @anthropic-ai/sdk in dist/vendor (scripts/bundle-sdk.mjs, scripts/anthropic-sdk-entry.mjs):
// the SDK's client core with its Messages resource, and its error classes.
import type { BaseAnthropic, ClientOptions } from "@anthropic-ai/sdk/client";
import type { Messages } from "@anthropic-ai/sdk/resources/messages";

/** `Anthropic` of @anthropic-ai/sdk with only `messages`. */
export interface Anthropic extends BaseAnthropic {
  messages: Messages;
}
export declare const Anthropic: new (options?: ClientOptions) => Anthropic;
export default Anthropic;
export * from "@anthropic-ai/sdk/core/error";
