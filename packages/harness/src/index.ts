// Public surface of @little-stack/harness: an explicit list of named exports.
export const packageName = "@little-stack/harness";
