// Public surface of @little-stack/otel: an explicit list of named exports.
export {};
