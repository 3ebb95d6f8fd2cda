// Public surface of @little-stack/testing: an explicit list of named exports.
export const packageName = "@little-stack/testing";
