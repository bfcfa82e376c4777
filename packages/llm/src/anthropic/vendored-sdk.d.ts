// The types of `#anthropic-sdk` (package.json "imports"): the bundled copy of
// @anthropic-ai/sdk in dist/vendor (scripts/bundle-sdk.mjs) has the SDK's own API.
export * from "@anthropic-ai/sdk";
export { default } from "@anthropic-ai/sdk";
