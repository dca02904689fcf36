import type { AppContext } from '../../context.ts';
import { oneOf, type Print, parse, required, show, UsageError } from '../../core/args.ts';
import type { Tenant } from '../../core/tenant.ts';
import { Forwarder, tailEvents } from './listen.ts';
import { SIGNATURE_SCHEMES } from './signing.ts';

export const EVENTS_USAGE = `  webhook create ORG_ID --mode sandbox|production --url URL --events T[,T…] [--description D]
                 [--signature-scheme purser|standard_webhooks] [--json]
  webhook list ORG_ID --mode sandbox|production [--json]
  webhook test WH_ID [--type T] [--json]         send a signed test event to one endpoint
  webhook deliveries WH_ID [--event EVT_ID] [--limit N] [--json]
  webhook resend WH_ID EVT_ID [--json]
  webhook recover WH_ID --since TIME [--json]    queue again every delivery that failed or was cancelled
                                                 since TIME (Unix seconds or ISO 8601, at most 14 days ago)
  webhook enable|disable|roll-secret|delete WH_ID [--json]
  events list ORG_ID --mode sandbox|production [--type T]... [--limit N] [--json]
  events listen ORG_ID --mode sandbox|production [--type T]... [--forward-to URL] [--json]
                                                 print (and forward, signed) new events until Ctrl-C`;

const MODES = ['sandbox', 'production'] as const;

/** The organization and mode a command names; an organization that does not exist is an error. */
async function ownerOf(ctx: AppContext, orgId: string, mode: string | undefined): Promise<Tenant> {
  const livemode = oneOf(required(mode, 'mode'), 'mode', MODES) === 'production';
  await ctx.orgs.getOrganization(orgId);
  return { organizationId: orgId, livemode };
}

/** `--since`: Unix seconds, or an ISO 8601 time such as 2026-11-20T09:00:00Z. */
function unixTimeOf(raw: string): number {
  if (/^\d+$/.test(raw)) return Number(raw);
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new UsageError('--since must be Unix seconds or an ISO 8601 time');
  return Math.floor(ms / 1000);
}

function limitOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new UsageError('--limit must be 1 to 100');
  return limit;
}

/** `webhook …` and `events …`; false when argv is not one of them. */
export async function runEventsCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  const [group, action, ...rest] = argv;
  const json = { type: 'boolean' } as const;
  if (group === 'events' && action === 'list') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      type: { type: 'string', multiple: true },
      limit: { type: 'string' },
      json,
    });
    const page = await ctx.events.listEvents(
      await ownerOf(ctx, required(positionals[0], 'ORG_ID'), values.mode),
      {
        type: values.type as string[] | undefined,
        limit: limitOf(values.limit),
      },
    );
    if (values.json) show(print, true, page);
    else for (const e of page.data) print(`${e.id}  ${new Date(e.created * 1000).toISOString()}  ${e.type}`);
    return true;
  }
  if (group === 'events' && action === 'listen') {
    await listen(ctx, rest, print);
    return true;
  }
  if (group !== 'webhook') return false;

  if (action === 'create') {
    const { values, positionals } = parse(rest, {
      mode: { type: 'string' },
      url: { type: 'string' },
      events: { type: 'string' },
      description: { type: 'string' },
      'signature-scheme': { type: 'string' },
      json,
    });
    const scheme = values['signature-scheme'];
    const owner = await ownerOf(ctx, required(positionals[0], 'ORG_ID'), values.mode);
    const endpoint = await ctx.events.createEndpoint(owner, {
      url: required(values.url, 'url'),
      enabled_events: required(values.events, 'events')
        .split(',')
        .map((type) => type.trim()),
      description: values.description,
      ...(scheme === undefined
        ? {}
        : { signature_scheme: oneOf(scheme, 'signature-scheme', SIGNATURE_SCHEMES) }),
    });
    await ctx.members.auditOperator(owner, 'webhook_endpoint.created', endpoint.id);
    show(print, values.json, endpoint);
    return true;
  }
  if (action === 'list') {
    const { values, positionals } = parse(rest, { mode: { type: 'string' }, json });
    const page = await ctx.events.listEndpoints(
      await ownerOf(ctx, required(positionals[0], 'ORG_ID'), values.mode),
      {
        limit: 100,
      },
    );
    if (values.json) show(print, true, page);
    else for (const e of page.data) print(`${e.id}  ${e.status}  ${e.url}  [${e.enabled_events.join(', ')}]`);
    return true;
  }

  const { values, positionals } = parse(rest, {
    type: { type: 'string' },
    event: { type: 'string' },
    limit: { type: 'string' },
    since: { type: 'string' },
    json,
  });
  const endpointId = required(positionals[0], 'WH_ID');
  const owner = await ctx.events.ownerOfEndpoint(endpointId);
  switch (action) {
    case 'test': {
      const sent = await ctx.events.sendTestEvent(owner, endpointId, values.type);
      await ctx.members.auditOperator(owner, 'webhook_endpoint.test_sent', sent.event_id);
      show(print, values.json, sent);
      return true;
    }
    case 'resend': {
      const delivery = await ctx.events.resend(owner, endpointId, required(positionals[1], 'EVT_ID'));
      await ctx.members.auditOperator(owner, 'webhook_delivery.resent', delivery.id);
      show(print, values.json, delivery);
      return true;
    }
    case 'enable':
    case 'disable': {
      const updated = await ctx.events.updateEndpoint(owner, endpointId, {
        status: action === 'enable' ? 'active' : 'disabled',
      });
      await ctx.members.auditOperator(owner, `webhook_endpoint.${action}d`, endpointId);
      show(print, values.json, updated);
      return true;
    }
    case 'recover': {
      const since = unixTimeOf(required(values.since, 'since'));
      const recovery = await ctx.events.recover(owner, endpointId, since);
      await ctx.members.auditOperator(owner, 'webhook_endpoint.recovered', endpointId);
      show(print, values.json, recovery);
      return true;
    }
    case 'roll-secret': {
      const rolled = await ctx.events.rollSecret(owner, endpointId);
      await ctx.members.auditOperator(owner, 'webhook_endpoint.secret_rolled', endpointId);
      show(print, values.json, rolled);
      return true;
    }
    case 'delete': {
      const deleted = await ctx.events.deleteEndpoint(owner, endpointId);
      await ctx.members.auditOperator(owner, 'webhook_endpoint.deleted', endpointId);
      show(print, values.json, deleted);
      return true;
    }
    case 'deliveries': {
      const page = await ctx.events.listDeliveries(
        owner,
        { endpointId, eventId: values.event },
        { limit: limitOf(values.limit) },
      );
      if (values.json) {
        show(print, true, page);
        return true;
      }
      for (const d of page.data) {
        print(`${d.id}  ${d.event_id}  ${d.event_type}  ${d.status}  attempts: ${d.attempt_count}`);
        for (const a of d.attempts) {
          const when = new Date(a.attempted_at * 1000).toISOString();
          print(`    #${a.attempt}  ${when}  ${a.status_code ?? '-'}  ${a.duration_ms} ms  ${a.error ?? ''}`);
        }
      }
      return true;
    }
  }
  throw new UsageError(`unknown command: webhook ${action ?? ''}`);
}

/**
 * `events listen`: one line per new event (the envelope as JSON with --json), forwarded with
 * --forward-to as a signed POST whose secret is printed at start; runs until SIGINT or SIGTERM.
 */
async function listen(ctx: AppContext, argv: string[], print: Print): Promise<void> {
  const { values, positionals } = parse(argv, {
    mode: { type: 'string' },
    type: { type: 'string', multiple: true },
    'forward-to': { type: 'string' },
    json: { type: 'boolean' },
  });
  const owner = await ownerOf(ctx, required(positionals[0], 'ORG_ID'), values.mode);
  let forwarder: Forwarder | null = null;
  if (values['forward-to'] !== undefined) {
    const url = URL.canParse(values['forward-to']) ? new URL(values['forward-to']) : null;
    if (!url || !['http:', 'https:'].includes(url.protocol))
      throw new UsageError('--forward-to must be an http(s) URL');
    forwarder = new Forwarder(url, ctx.clock, ctx.config.webhooks.timeoutMs);
  }
  const mode = owner.livemode ? 'production' : 'sandbox';
  // Taken before saying so: an event written once "Listening" is out is never older than this.
  const fromMs = ctx.clock.now();
  const note = (line: string) => process.stderr.write(`${line}\n`);
  // One write, "Listening" last: whoever waits for it has the forwarding secret too.
  note(
    [
      ...(forwarder ? [`Forwarding to ${values['forward-to']}, signed with ${forwarder.secret}`] : []),
      `Listening for ${mode} events of ${owner.organizationId}; Ctrl-C stops.`,
    ].join('\n'),
  );

  const stop = new AbortController();
  const abort = () => stop.abort();
  process.once('SIGINT', abort).once('SIGTERM', abort);
  try {
    await tailEvents(ctx.events, owner, {
      type: values.type,
      fromMs,
      pollIntervalMs: 250,
      signal: stop.signal,
      async onEvent(tailed) {
        const { id, type, created } = tailed.event;
        if (values.json) print(JSON.stringify(tailed.event));
        else print(`${new Date(created * 1000).toISOString()}  ${type}  ${id}`);
        if (forwarder) note(`${id} -> ${await forwarder.forward(tailed)}`);
      },
    });
  } finally {
    process.off('SIGINT', abort).off('SIGTERM', abort);
  }
}
