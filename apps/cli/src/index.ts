// The public API of @z-engine/cli. Nothing is exported until its issue lands.
export {};
