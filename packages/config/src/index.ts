// The public API of @z-engine/config. Nothing is exported until its issue lands.
export {};
