// A --tools module that fails while loading.
throw new Error("the tools module could not connect to its database");
