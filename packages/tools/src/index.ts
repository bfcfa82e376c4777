// The public API of @z-engine/tools. Nothing is exported until its issue lands.
export {};
