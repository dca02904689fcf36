import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import {
  EVENT_TYPES,
  RECOVER_WINDOW_DAYS,
  SIGNATURE_SCHEMES,
  type SignatureScheme,
} from '../../../domains/events/index.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  DoneQuery,
  doneNotice,
  type Feedback,
  messages,
  ObjectParams,
  type OrgScope,
  type Page,
  when,
} from '../kit.ts';

/** Every catalog type (and `*`) as a checkbox, those subscribed to checked. */
function eventPicker(checked: readonly string[]): string {
  return ['*', ...EVENT_TYPES]
    .map(
      (type) =>
        `<label><input type="checkbox" name="events" value="${type}"${checked.includes(type) ? ' checked' : ''}> ${type}</label>`,
    )
    .join('');
}

const SCHEME_LABELS: Record<SignatureScheme, string> = {
  purser: 'Purser (Service-Signature)',
  standard_webhooks: 'Standard Webhooks (webhook-signature)',
};

/** The signature scheme as a select, `current` chosen. */
function schemePicker(id: string, current: SignatureScheme): string {
  const options = SIGNATURE_SCHEMES.map(
    (scheme) =>
      `<option value="${scheme}"${scheme === current ? ' selected' : ''}>${SCHEME_LABELS[scheme]}</option>`,
  ).join('');
  return `<label for="${id}">Signature</label><br><select id="${id}" name="signature_scheme">${options}</select><br>`;
}

/** How far back a recover reaches, as offered in the console: label and seconds. */
const RECOVER_SPANS: [string, number][] = [
  ['the last hour', 3_600],
  ['the last 24 hours', 86_400],
  ['the last 3 days', 3 * 86_400],
  ['the last 7 days', 7 * 86_400],
  [`the last ${RECOVER_WINDOW_DAYS} days`, RECOVER_WINDOW_DAYS * 86_400],
];

/** A scheme from a form: one of the known, else refused as the API refuses it. */
function schemeOf(value: string | undefined): SignatureScheme {
  const scheme = SIGNATURE_SCHEMES.find((known) => known === value);
  if (!scheme) throw new ApiError(400, 'invalid_request', 'Choose a signature scheme.');
  return scheme;
}

/** Webhook destinations: the list with the event picker, and one destination with its deliveries. */
export async function webhookPages(
  app: RoutesApp,
  { clock, events, members }: Pick<ConsoleServices, 'clock' | 'events' | 'members'>,
  { header, show, formPage }: ConsoleKit,
) {
  const webhooksPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: Feedback & { secret?: string },
  ): Promise<Page> => {
    const list = await events.listEndpoints(scope, { limit: 100 });
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/webhooks`;
    const rows = list.data
      .map(
        (e) =>
          `<tr><td><a href="${base}/${escapeHtml(e.id)}"><code>${escapeHtml(e.id)}</code></a></td><td>${escapeHtml(e.url)}</td><td>${escapeHtml(e.enabled_events.join(', '))}</td><td>${e.status}</td></tr>`,
      )
      .join('');
    return {
      title: 'Webhooks',
      body: `${header(member, scope, csrf, 'webhooks')}<main><h1>Webhook destinations</h1>${messages(feedback)}
${feedback.secret ? `<section><p>The signing secret, shown only this once:</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><table><tr><th>id</th><th>url</th><th>events</th><th>status</th></tr>${rows}</table></section>
<section><h2>New destination</h2><form method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="create">
<label for="f_url">URL</label><br><input id="f_url" name="url" type="url" required><br>
${schemePicker('f_scheme', 'purser')}
<div class="events">${eventPicker([])}</div><button type="submit" id="create-endpoint">Create destination</button></form></section></main>`,
    };
  };

  const endpointPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    id: string,
    feedback: Feedback & { secret?: string },
  ): Promise<Page> => {
    const endpoint = await events.getEndpoint(scope, id);
    const deliveries = await events.listDeliveries(scope, { endpointId: id }, { limit: 50 });
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/webhooks`;
    const button = (name: string, label: string, extra = '') =>
      `<form class="inline" method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="${name}"><input type="hidden" name="endpoint_id" value="${escapeHtml(id)}">${extra}<button type="submit" class="secondary" id="${name}">${label}</button></form>`;
    const rows = deliveries.data
      .map(
        (d) =>
          `<tr><td><code>${escapeHtml(d.event_id)}</code><br>${escapeHtml(d.event_type ?? '')}</td><td class="delivery-status">${d.status}</td><td>${d.attempts
            .map(
              (a) =>
                `#${a.attempt} ${when(a.attempted_at * 1000)} → ${a.status_code ?? escapeHtml(a.error ?? '')} (${a.duration_ms} ms)${a.response_excerpt ? `<br><code>${escapeHtml(a.response_excerpt)}</code>` : ''}`,
            )
            .join(
              '<br>',
            )}</td><td>${button('resend', 'Resend', `<input type="hidden" name="event_id" value="${escapeHtml(d.event_id)}">`)}</td></tr>`,
      )
      .join('');
    return {
      title: endpoint.url,
      body: `${header(member, scope, csrf, 'webhooks')}<main><h1>${escapeHtml(endpoint.url)}</h1>${messages(feedback)}
${feedback.secret ? `<section><p>The signing secret, shown only this once:</p><p><code id="secret">${escapeHtml(feedback.secret)}</code></p></section>` : ''}
<section><p><code>${escapeHtml(endpoint.id)}</code> · ${endpoint.status} · ${escapeHtml(endpoint.enabled_events.join(', '))} · signed ${SCHEME_LABELS[endpoint.signature_scheme]}</p>
${button('test', 'Send test event')}${button('roll', 'Roll secret')}${button('reveal', 'Reveal secret')}${endpoint.status === 'active' ? button('disable', 'Disable') : button('enable', 'Enable')}</section>
<section><h2>Edit</h2><form method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="edit"><input type="hidden" name="endpoint_id" value="${escapeHtml(id)}">
<label for="f_edit_url">URL</label><br><input id="f_edit_url" name="url" type="url" required value="${escapeHtml(endpoint.url)}"><br>
${schemePicker('f_edit_scheme', endpoint.signature_scheme)}
<div class="events">${eventPicker(endpoint.enabled_events)}</div><button type="submit" id="edit-endpoint">Save</button></form></section>
<section><h2>Recover</h2><p class="hint">Queue again, once each and in order, every event whose delivery here failed or was cancelled in the chosen time.</p>
<form method="post" action="${base}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="recover"><input type="hidden" name="endpoint_id" value="${escapeHtml(id)}">
<label for="f_since">Failed or cancelled in</label><br><select id="f_since" name="since">${RECOVER_SPANS.map(([label, span]) => `<option value="${span}"${span === 86_400 ? ' selected' : ''}>${label}</option>`).join('')}</select>
<button type="submit" id="recover">Recover</button></form></section>
<section><h2>Deliveries</h2><table id="deliveries"><tr><th>event</th><th>status</th><th>attempts (request → response)</th><th></th></tr>${rows}</table></section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string; id: string }; Querystring: { done?: string } }>(
    '/dashboard/:org/:mode/webhooks/:id',
    { schema: { hide: true, params: ObjectParams, querystring: DoneQuery } },
    async (request, reply) =>
      show(request, reply, (member, scope, csrf) =>
        endpointPage(member, scope, csrf, request.params.id, doneNotice(request.query)),
      ),
  );

  formPage(app, 'webhooks', webhooksPage, (request) => async (member, scope, csrf) => {
    const { body } = request;
    const id = body.endpoint_id ?? '';
    const detail = (feedback: { notice?: string; secret?: string }) =>
      endpointPage(member, scope, csrf, id, feedback);
    const back = (done: string) => ({
      redirect: `${request.url}/${encodeURIComponent(id)}?done=${done}`,
    });
    switch (body.action) {
      case 'create': {
        const chosen = [body.events ?? []].flat();
        const created = await events.createEndpoint(scope, {
          url: body.url ?? '',
          enabled_events: chosen.length > 0 ? chosen : ['*'],
          signature_scheme: schemeOf(body.signature_scheme ?? 'purser'),
        });
        await members.audit(member, scope, 'webhook_endpoint.created', created.id);
        return webhooksPage(member, scope, csrf, {
          notice: `Destination ${created.id} created.`,
          secret: created.secret,
        });
      }
      case 'roll': {
        const rolled = await events.rollSecret(scope, id);
        await members.audit(member, scope, 'webhook_endpoint.secret_rolled', id);
        return detail({ notice: 'Secret rolled: the old one stopped signing.', secret: rolled.secret });
      }
      case 'reveal': {
        const secret = await events.revealSecret(scope, id);
        await members.audit(member, scope, 'webhook_endpoint.secret_revealed', id);
        return detail({ secret });
      }
      case 'test': {
        const sent = await events.sendTestEvent(scope, id, undefined);
        await members.audit(member, scope, 'webhook_endpoint.test_sent', sent.event_id);
        return back('test_sent');
      }
      case 'edit': {
        const chosen = [body.events ?? []].flat();
        if (chosen.length === 0) throw new ApiError(400, 'invalid_request', 'Choose at least one event.');
        await events.updateEndpoint(scope, id, {
          url: body.url ?? '',
          enabled_events: chosen,
          ...(body.signature_scheme === undefined
            ? {}
            : { signature_scheme: schemeOf(body.signature_scheme) }),
        });
        await members.audit(member, scope, 'webhook_endpoint.updated', id);
        return back('updated');
      }
      case 'disable':
      case 'enable': {
        await events.updateEndpoint(scope, id, {
          status: body.action === 'enable' ? 'active' : 'disabled',
        });
        await members.audit(member, scope, `webhook_endpoint.${body.action}d`, id);
        return back(`${body.action}d`);
      }
      case 'recover': {
        const span = RECOVER_SPANS.find(([, seconds]) => String(seconds) === body.since)?.[1];
        if (span === undefined) throw new ApiError(400, 'invalid_request', 'Choose how far back to recover.');
        const recovery = await events.recover(scope, id, Math.floor(clock.now() / 1000) - span);
        await members.audit(member, scope, 'webhook_endpoint.recovered', id);
        return {
          redirect: `${request.url}/${encodeURIComponent(id)}?done=recovered&count=${recovery.recovered}`,
        };
      }
      case 'resend': {
        const delivery = await events.resend(scope, id, body.event_id ?? '');
        await members.audit(member, scope, 'webhook_delivery.resent', delivery.id);
        return back('resent');
      }
      default:
        throw new ApiError(400, 'invalid_request', 'Unknown action.');
    }
  });
}
