// Public surface of @little-stack/local-world: an explicit list of named exports.
export const packageName = "@little-stack/local-world";
