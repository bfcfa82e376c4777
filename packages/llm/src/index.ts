// The public API of @z-engine/llm. Nothing is exported until its issue lands.
export {};
