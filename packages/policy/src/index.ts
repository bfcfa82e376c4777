// The public API of @z-engine/policy. Nothing is exported until its issue lands.
export {};
