// Public surface of @little-stack/memory: an explicit list of named exports.
export const packageName = "@little-stack/memory";
