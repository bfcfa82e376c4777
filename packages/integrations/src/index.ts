// The public API of @z-engine/integrations. Nothing is exported until its issue lands.
export {};
