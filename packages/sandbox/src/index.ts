// Public surface of @little-stack/sandbox: an explicit list of named exports.
export const packageName = "@little-stack/sandbox";
