// The types of `#openai-sdk` (package.json "imports"): the bundled copy of openai in
// dist/vendor (scripts/bundle-sdk.mjs) has the SDK's own API.
export * from "openai";
export { default } from "openai";
