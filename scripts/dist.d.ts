export declare const ROOT: string;
export declare const SOURCE: string;
export declare const DIST: string;
export declare const COMPILED_ENTRY: string;
export declare const STAMP: string;
export declare function buildState(): 'current' | 'stale' | 'absent';
