/** What every MCP tool group shares: the tool's shape, the common input schemas, the caller's scope. */
import * as z from 'zod';
import type { Principal } from '../../auth/index.ts';
import { type CardService, scopeOf } from '../../cards/index.ts';
import type { ConnectService } from '../../connect/index.ts';
import type { KycService } from '../../kyc/index.ts';
import type { MandateService } from '../../mandates/index.ts';
import type { PurchaseService } from '../../purchases/index.ts';
import type { RecentUsers } from '../recent-users.ts';

/** The principal of a connection token: always one user, through one client's connection. */
export type ConnectionPrincipal = Principal & { kind: 'connection'; userId: string; connectionId: string };

/** The services the tools call, handed to the tool server by app.ts. */
export interface ToolServices {
  cards: CardService;
  controls: CardService['controls'];
  network: CardService['network'];
  connect: ConnectService;
  kyc: KycService;
  mandates: MandateService;
  purchases: PurchaseService;
}

/** What a tool runs with: the services, and the connection it acts for (never anyone else). */
export interface ToolCall {
  services: ToolServices;
  principal: ConnectionPrincipal;
  /** The users read lately (AUTH_CACHE_TTL_MS), for the tools that show the user itself. */
  users: RecentUsers;
}

/** A tool's answer: one line (or a few) for a person, and the same facts as structured content. */
export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run(call: ToolCall, args: z.infer<Input>): Promise<ToolAnswer>;
}

export const define = <Input extends z.ZodObject>(tool: ToolDefinition<Input>) =>
  tool as unknown as ToolDefinition;

// ---- schemas shared by several tools

export const Cents = (description: string) =>
  z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).describe(description);
export const Id = (description: string) => z.string().min(1).max(64).describe(description);
export const Paging = {
  limit: z.number().int().min(1).max(100).default(10).describe('How many to return, 1 to 100 (default 10)'),
  starting_after: z
    .string()
    .max(64)
    .optional()
    .describe('The last id of the previous page, to read the next one'),
};

export const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal('list'), data: z.array(item), has_more: z.boolean() });

export const NoInput = z.object({});

// The connection's organization and mode, and its user through its client: what ownership checks compare.
export const scope = (call: ToolCall) => scopeOf(call.principal);
export const owner = (call: ToolCall) => ({
  userId: call.principal.userId,
  clientId: call.principal.clientId,
});
