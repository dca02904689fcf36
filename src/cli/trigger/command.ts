import type { AppContext } from '../../context.ts';
import { type Print, parse, UsageError } from '../../core/args.ts';
import type { Principal } from '../../domains/auth/service.ts';
import { EVENT_TYPES, type EventType, editDistance, isKnownEventType } from '../../domains/events/catalog.ts';
import type { EventEnvelope } from '../../domains/events/service.ts';
import { type Created, SandboxSteps } from './sandbox.ts';
import { SCENARIOS } from './scenarios.ts';

export const TRIGGER_USAGE = `  trigger EVENT [--variant NAME] [--org ORG_ID] [--mode sandbox] [--json]
                                      sandbox: run the scenario that produces EVENT through the services
                                      (--org may be left out when there is one organization; --variant
                                      picks another story of EVENT, as --list shows)
  trigger --list [--json]             every event type and its scenario`;

export interface TriggerResult {
  type: EventType;
  /** The story told, when not the type's default one (`--variant`). */
  variant?: string;
  organization_id: string;
  mode: 'sandbox';
  /** What the scenario made, in order. */
  created: Created[];
  /** The event of the asked type that the scenario produced. */
  event: EventEnvelope;
}

/** A refusal whose message says everything (no usage text under it); exit code 2. */
const refuse = (message: string) => new UsageError(message, false);

/** `purser trigger …`; false when argv is not ours. */
export async function runTriggerCommand(ctx: AppContext, argv: string[], print: Print): Promise<boolean> {
  if (argv[0] !== 'trigger') return false;
  const { values, positionals } = parse(argv.slice(1), {
    org: { type: 'string' },
    mode: { type: 'string' },
    list: { type: 'boolean' },
    json: { type: 'boolean' },
    variant: { type: 'string' },
  });
  if (values.list) {
    const list = listScenarios();
    if (values.json) print(JSON.stringify(list, null, 2));
    else {
      for (const entry of list) {
        print(`${entry.type.padEnd(40)} ${entry.scenario}`);
        for (const variant of entry.variants ?? [])
          print(`${`  --variant ${variant.name}`.padEnd(40)} ${variant.scenario}`);
      }
    }
    return true;
  }
  const type = positionals[0];
  if (type === undefined)
    throw new UsageError('trigger needs an EVENT type (purser trigger --list shows them)');
  const result = await trigger(ctx, {
    type,
    organizationId: values.org,
    mode: values.mode,
    variant: values.variant,
  });
  await ctx.members.auditOperator(
    { organizationId: result.organization_id, livemode: false },
    'event.triggered',
    result.event.id,
  );
  if (values.json) {
    print(JSON.stringify(result, null, 2));
    return true;
  }
  const variant = result.variant ? ` (--variant ${result.variant})` : '';
  print(`Triggered ${result.type}${variant} in ${result.organization_id} (sandbox):`);
  for (const { object, id } of result.created) print(`  ${object.padEnd(18)} ${id}`);
  print(`  ${'event'.padEnd(18)} ${result.event.id}  ${result.event.type}`);
  return true;
}

/** Every catalog type with its scenario, or "not available: why", and its other stories (`--variant`). */
export function listScenarios(): {
  type: EventType;
  available: boolean;
  scenario: string;
  variants?: { name: string; scenario: string }[];
}[] {
  return EVENT_TYPES.map((type) => {
    const scenario = SCENARIOS[type];
    if ('unavailable' in scenario)
      return { type, available: false, scenario: `not available: ${scenario.unavailable}` };
    const variants = Object.entries(scenario.variants ?? {}).map(([name, story]) => ({
      name,
      scenario: story.steps,
    }));
    return { type, available: true, scenario: scenario.steps, ...(variants.length > 0 ? { variants } : {}) };
  });
}

/**
 * Runs the sandbox scenario of `type` in the organization, as its sandbox client, and returns what
 * it made and the event. Refuses (before making anything) production, unknown and unavailable types.
 */
export async function trigger(
  ctx: AppContext,
  input: {
    type: string;
    organizationId?: string | undefined;
    mode?: string | undefined;
    variant?: string | undefined;
  },
): Promise<TriggerResult> {
  const mode = input.mode ?? 'sandbox';
  if (mode === 'production' || mode === 'live') {
    throw refuse(
      'trigger runs sandbox scenarios only: production events come from real activity, never from a script.',
    );
  }
  if (mode !== 'sandbox') throw refuse(`--mode must be sandbox, got "${mode}"`);
  if (!isKnownEventType(input.type)) {
    throw refuse(
      `unknown event type "${input.type}". Close matches: ${closeMatches(input.type).join(', ')}. ` +
        '`purser trigger --list` shows them all.',
    );
  }
  const type = input.type as EventType;
  const scenario = SCENARIOS[type];
  if ('unavailable' in scenario) throw refuse(`${type} is not available: ${scenario.unavailable}.`);
  const story = input.variant === undefined ? scenario : scenario.variants?.[input.variant];
  if (!story) {
    const names = Object.keys(scenario.variants ?? {});
    throw refuse(
      `${type} has no variant "${input.variant}"` +
        (names.length > 0 ? `: its variants are ${names.join(', ')}.` : ': it has none.'),
    );
  }

  const principal = await sandboxPrincipal(ctx, input.organizationId);
  const steps = new SandboxSteps(ctx, principal);
  const started = ctx.clock.now();
  const outcome = await story.run(steps);
  const owner = steps.scope;
  const event = outcome
    ? await ctx.events.getEvent(owner, outcome.eventId)
    : await producedEvent(ctx, owner, type, started, steps.created);
  return {
    type,
    ...(input.variant === undefined ? {} : { variant: input.variant }),
    organization_id: principal.organizationId,
    mode: 'sandbox',
    created: steps.created,
    event,
  };
}

/** The organization's sandbox client, acting as a platform's API request would. */
async function sandboxPrincipal(ctx: AppContext, organizationId: string | undefined): Promise<Principal> {
  let orgId = organizationId;
  if (orgId === undefined) {
    const ids = await ctx.orgs.organizationIds(2);
    if (ids.length !== 1) {
      throw refuse(
        ids.length === 0
          ? 'there is no organization yet: create one with `purser org create`, or start `npm start` once.'
          : 'there are several organizations: name one with --org ORG_ID.',
      );
    }
    orgId = ids[0] as string;
  }
  const organization = await ctx.orgs.getOrganization(orgId);
  if (organization.status !== 'active') throw refuse(`the organization ${orgId} is suspended.`);
  const client = await ctx.orgs.firstActiveClient(orgId, 'sandbox');
  if (!client) {
    throw refuse(
      `the organization ${orgId} has no active sandbox client: create one with ` +
        `\`purser client create ${orgId} --mode sandbox\`.`,
    );
  }
  return {
    kind: 'platform',
    organizationId: orgId,
    clientId: client.id,
    livemode: false,
    userId: null,
    connectionId: null,
  };
}

/**
 * The scenario's event: of this type, created since it started, naming something it made (another
 * process may be producing events of the same type meanwhile); else the newest since it started.
 */
async function producedEvent(
  ctx: AppContext,
  owner: { organizationId: string; livemode: boolean },
  type: EventType,
  startedMs: number,
  created: Created[],
): Promise<EventEnvelope> {
  const page = await ctx.events.listEvents(owner, {
    type: [type],
    'created[gte]': Math.floor(startedMs / 1000),
    limit: 100,
  });
  const ids = new Set(created.map((c) => c.id));
  const mentions = (event: EventEnvelope) => Object.values(event.data).some((v) => ids.has(v as string));
  const event = page.data.find(mentions) ?? page.data[0];
  if (!event) throw new Error(`the scenario ran, but no ${type} event was recorded`);
  return event;
}

/** Types containing what was typed, then the nearest by edit distance: three at most. */
function closeMatches(name: string): string[] {
  const typed = name.toLowerCase();
  const containing = EVENT_TYPES.filter((t) => t.includes(typed) || typed.includes(t));
  const nearest = [...EVENT_TYPES].sort((a, b) => editDistance(typed, a) - editDistance(typed, b));
  return [...new Set([...containing, ...nearest])].slice(0, 3);
}
