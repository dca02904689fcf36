export declare function buildService(): Promise<void>;
export declare function ensureBuilt(): Promise<void>;
