import { ACCOUNT_TOOLS } from './tools/account.ts';
import { CARD_TOOLS } from './tools/cards.ts';
import type { ToolDefinition } from './tools/kit.ts';
import { PURCHASE_TOOLS } from './tools/purchases.ts';

export type { ConnectionPrincipal, ToolAnswer, ToolCall, ToolDefinition, ToolServices } from './tools/kit.ts';

/** Every tool, in the order tools/list shows them; each group lives in tools/<group>.ts. */
export const TOOLS: ToolDefinition[] = [...ACCOUNT_TOOLS, ...CARD_TOOLS, ...PURCHASE_TOOLS];
