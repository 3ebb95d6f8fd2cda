// Public surface of @little-stack/cli: an explicit list of named exports.
export const packageName = "@little-stack/cli";
