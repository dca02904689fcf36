// Entry of a reader thread (reader/pool.ts): registers tsx's loader in this thread, as bin/purser.js
// does for the main one, then runs the TypeScript side.
import { register } from 'tsx/esm/api';

register();
await import('./thread-main.ts');
