// Public surface of @little-stack/inspector: an explicit list of named exports.
export {};
