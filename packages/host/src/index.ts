// The public API of @z-engine/host. Nothing is exported until its issue lands.
export {};
