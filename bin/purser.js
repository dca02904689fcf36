#!/usr/bin/env node
// The `purser` command: runs the TypeScript entry point through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
