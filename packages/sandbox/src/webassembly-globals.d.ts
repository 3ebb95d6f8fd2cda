// Node 20 has the WebAssembly global, but @types/node 20 does not declare it and this package
// does not load the DOM lib: the few members the sandbox uses, as Node implements them.
declare namespace WebAssembly {
  interface Module {
    readonly __webAssemblyModule?: never;
  }
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
    shared?: boolean;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  function compile(bytes: Uint8Array | ArrayBuffer): Promise<Module>;
}
