// Public surface of @little-stack/lwir: an explicit list of named exports.
export const packageName = "@little-stack/lwir";
