// Public surface of @little-stack/compiler: an explicit list of named exports.
export const packageName = "@little-stack/compiler";
