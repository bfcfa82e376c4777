// The public API of @z-engine/verify. Nothing is exported until its issue lands.
export {};
