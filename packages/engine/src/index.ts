// The public API of @z-engine/engine. Nothing is exported until its issue lands.
export {};
