// The public API of @z-engine/web. Nothing is exported until its issue lands.
export {};
