import * as z from 'zod';
import { missing } from '../../../core/refusal.ts';
import { KYC_STATUSES, type KycService } from '../../kyc/index.ts';
import { define, Id, listOf, NoInput, type ToolDefinition } from './kit.ts';

const Kyc = z.object({
  object: z.literal('kyc'),
  status: z.enum(KYC_STATUSES),
  required_fields: z.array(z.string()).optional(),
  iframe_url: z
    .string()
    .optional()
    .describe('The hosted verification page, while the user has something to do'),
  reason: z.string().optional(),
});

/** The KYC state as the tool shows it: the platform contract minus what only uploads carry. */
function kycData(state: Awaited<ReturnType<KycService['state']>>) {
  return {
    object: 'kyc' as const,
    status: state.status,
    ...(state.required_fields ? { required_fields: state.required_fields } : {}),
    ...(state.iframe_url ? { iframe_url: state.iframe_url } : {}),
    ...(state.reason ? { reason: state.reason } : {}),
  };
}

/** Who the connection is, its identity verification, and the apps the user connected. */
export const ACCOUNT_TOOLS: ToolDefinition[] = [
  define({
    name: 'whoami',
    title: 'Who am I',
    description:
      'The user this connection acts for, the app (client) it was made through, the organization and whether it is test mode.',
    input: NoInput,
    output: z.object({
      user: z.object({ id: z.string(), email: z.string().nullable(), phone: z.string().nullable() }),
      client_id: z.string(),
      connection_id: z.string(),
      organization_id: z.string(),
      test_mode: z.boolean(),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const { principal } = call;
      const user = await call.users.get(principal.organizationId, principal.livemode, principal.userId);
      if (!user) throw missing('No such user.');
      const contact = user.email ?? user.phone ?? 'no contact on file';
      return {
        text: `Connected as user ${user.id} (${contact}) through app ${principal.clientId}${principal.livemode ? '' : ', test mode'}.`,
        data: {
          user: { id: user.id, email: user.email, phone: user.phone },
          client_id: principal.clientId,
          connection_id: principal.connectionId,
          organization_id: principal.organizationId,
          test_mode: !principal.livemode,
        },
      };
    },
  }),

  define({
    name: 'get_kyc_status',
    title: 'Identity verification status',
    description:
      "The user's identity verification status (awaiting_documents, needs_information, requires_verification, pending, approved, rejected) and what it still needs.",
    input: NoInput,
    output: Kyc,
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const state = kycData(await call.services.kyc.state(call.principal, call.principal.userId));
      const needs = state.required_fields?.length
        ? ` Still needed: ${state.required_fields.join(', ')}.`
        : '';
      const reason = state.reason ? ` ${state.reason}` : '';
      return { text: `Identity verification: ${state.status}.${reason}${needs}`, data: state };
    },
  }),

  define({
    name: 'start_kyc',
    title: 'Start identity verification',
    description:
      'A link to the hosted verification page (documents, face scan) for the user to open in a browser. ' +
      'No link once the verification is pending review or decided.',
    input: NoInput,
    output: z.object({ status: z.string(), url: z.string().nullable(), reason: z.string().optional() }),
    annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    async run(call) {
      const state = kycData(await call.services.kyc.state(call.principal, call.principal.userId));
      const url = state.iframe_url ?? null;
      const text = url
        ? `Open this link to verify your identity (status ${state.status}): ${url}`
        : `No verification page to open: the verification is ${state.status}.`;
      return { text, data: { status: state.status, url, ...(state.reason ? { reason: state.reason } : {}) } };
    },
  }),

  define({
    name: 'list_connections',
    title: 'Connected apps',
    description:
      'The apps the user is connected to in this organization; `current` marks the one this token belongs to.',
    input: NoInput,
    output: listOf(
      z.object({
        object: z.literal('connection'),
        id: z.string(),
        client_id: z.string(),
        app_name: z.string().nullable(),
        connected_at: z.string(),
        current: z.boolean(),
      }),
    ),
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(call) {
      const rows = await call.services.connect.listConnections(call.principal);
      const data = rows.map((row) => ({
        object: 'connection' as const,
        ...row,
        current: row.id === call.principal.connectionId,
      }));
      const lines = data.map(
        (c) =>
          `- ${c.app_name ?? c.client_id} (${c.id}), connected ${c.connected_at}${c.current ? ' — this app' : ''}`,
      );
      return {
        text: data.length ? `Connected apps:\n${lines.join('\n')}` : 'No connected apps.',
        data: { object: 'list', data, has_more: false },
      };
    },
  }),

  define({
    name: 'revoke_connection',
    title: 'Disconnect this app',
    description:
      "Disconnects this app from the user's account: its access and refresh tokens stop working at once, " +
      'including the one making this call. Other apps are disconnected from the connected-apps page.',
    input: z.object({
      connection_id: Id(
        'The connection to end; must be this app’s own (see list_connections). Default: this one',
      ).optional(),
    }),
    output: z.object({ object: z.literal('connection'), id: z.string(), revoked: z.literal(true) }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async run(call, args) {
      const id = args.connection_id ?? call.principal.connectionId;
      await call.services.connect.disconnect(call.principal, id);
      return {
        text: `Disconnected ${id}: this app's tokens no longer work; connect again to continue.`,
        data: { object: 'connection', id, revoked: true },
      };
    },
  }),
];
