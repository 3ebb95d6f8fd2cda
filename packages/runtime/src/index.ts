// Public surface of @little-stack/runtime: an explicit list of named exports.
export const packageName = "@little-stack/runtime";
