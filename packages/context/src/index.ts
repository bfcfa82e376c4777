// The public API of @z-engine/context. Nothing is exported until its issue lands.
export {};
