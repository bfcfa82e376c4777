// The public API of @z-engine/store. Nothing is exported until its issue lands.
export {};
