// Public surface of @little-stack/models: an explicit list of named exports.
export const packageName = "@little-stack/models";
