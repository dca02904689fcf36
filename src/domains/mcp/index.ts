/** The front door of `mcp` (docs/architecture.md, "Walls"): what other domains may use. */
export type { ToolDefinition } from './tools.ts';
