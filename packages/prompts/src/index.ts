// The public API of @z-engine/prompts. Nothing is exported until its issue lands.
export {};
