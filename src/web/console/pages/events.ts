import { Type } from 'typebox';
import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { EVENT_TYPES, isKnownEventType } from '../../../domains/events/index.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  ObjectParams,
  type OrgScope,
  type Page,
  ScopeParams,
  shortId,
  when,
} from '../kit.ts';
import * as store from '../store.ts';

/**
 * Events: the organization's events in this mode, newest first, filtered by type (the catalog), user
 * or card, 50 to a page; and one event's JSON as its webhook delivers it.
 */

const PAGE_SIZE = 50;
/** How many of a user's cards and cardholders their filter looks for in event data. */
const USER_IDS_LIMIT = 50;

const EventsQuery = Type.Object({
  type: Type.Optional(Type.String({ maxLength: 100 })),
  user: Type.Optional(Type.String({ maxLength: 64 })),
  card: Type.Optional(Type.String({ maxLength: 64 })),
  before: Type.Optional(Type.String({ maxLength: 64 })),
});
type EventsFilter = { type?: string; user?: string; card?: string; before?: string };

/** An id of this kind, or a 400 naming the field (an empty field is no filter). */
function idFilter(value: string | undefined, prefix: string, field: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const id = value.trim();
  if (!new RegExp(`^${prefix}_[0-9A-Za-z]{1,60}$`).test(id))
    throw new ApiError(400, 'invalid_request', `${field} must be a ${prefix}_… id.`);
  return id;
}

export async function eventPages(
  app: RoutesApp,
  { db, events }: Pick<ConsoleServices, 'db' | 'events'>,
  { header, show }: ConsoleKit,
) {
  /** A page of events, newest first: through the events API, or by ids in the data for a user or card. */
  const listed = async (scope: OrgScope, type: string | undefined, ids: string[] | null, before?: string) => {
    if (ids === null) {
      const page = await events.listEvents(scope, {
        ...(type ? { type: [type] } : {}),
        limit: PAGE_SIZE,
        ...(before ? { starting_after: before } : {}),
      });
      return {
        rows: page.data.map((e) => ({ id: e.id, type: e.type, created_at: e.created * 1000 })),
        more: page.has_more,
      };
    }
    const position = before ? await store.eventPosition(db, scope, before) : null;
    if (before && !position) throw new ApiError(400, 'invalid_request', 'before is not an event here.');
    const rows =
      ids.length === 0
        ? []
        : await store.eventsMentioning(
            db,
            scope,
            { type: type ?? null, ids },
            position ?? null,
            PAGE_SIZE + 1,
          );
    return { rows: rows.slice(0, PAGE_SIZE), more: rows.length > PAGE_SIZE };
  };

  const eventsPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    query: EventsFilter,
  ): Promise<Page> => {
    const type = query.type?.trim() || undefined;
    if (type !== undefined && !isKnownEventType(type))
      throw new ApiError(400, 'invalid_request', 'type must be an event type of the catalog.');
    const user = idFilter(query.user, 'usr', 'user');
    const card = idFilter(query.card, 'card', 'card');
    const before = idFilter(query.before, 'evt', 'before');
    // Both named: the card's events, when the card is the user's (else none).
    let ids: string[] | null = null;
    if (card) ids = [card];
    if (user) {
      const own = [user, ...(await store.idsOfUser(db, scope, user, USER_IDS_LIMIT))];
      ids = card ? (own.includes(card) ? [card] : []) : own;
    }
    const { rows, more } = await listed(scope, type, ids, before);
    const base = `/dashboard/${scope.organizationId}/${scope.mode}/events`;
    const filters = new URLSearchParams({
      ...(type ? { type } : {}),
      ...(user ? { user } : {}),
      ...(card ? { card } : {}),
    });
    const older = more
      ? `<p><a id="older" href="${base}?${escapeHtml(new URLSearchParams([...filters, ['before', rows.at(-1)!.id]]).toString())}">Older events</a></p>`
      : '';
    const options = ['', ...EVENT_TYPES]
      .map(
        (t) =>
          `<option value="${t}"${t === (type ?? '') ? ' selected' : ''}>${t === '' ? 'Every type' : t}</option>`,
      )
      .join('');
    const list = rows
      .map(
        (e) =>
          `<tr><td>${when(e.created_at)}</td><td>${escapeHtml(e.type)}</td><td><a href="${base}/${escapeHtml(e.id)}">${shortId(e.id)}</a></td></tr>`,
      )
      .join('');
    return {
      title: 'Events',
      body: `${header(member, scope, csrf, 'events')}<main><h1>Events</h1>
<section><form class="filters" method="get" action="${base}">
<label>Type<br><select name="type">${options}</select></label>
<label>User id<br><input type="text" name="user" value="${escapeHtml(user ?? '')}" placeholder="usr_…"></label>
<label>Card id<br><input type="text" name="card" value="${escapeHtml(card ?? '')}" placeholder="card_…"></label>
<button type="submit">Filter</button></form>
${user || card ? '<p class="hint">A user’s events are those naming them, their cards or their cardholder record.</p>' : ''}</section>
<section><table id="events"><tr><th>time</th><th>type</th><th>event</th></tr>${list}</table>
${rows.length === 0 ? '<p class="hint">No events match.</p>' : ''}${older}</section></main>`,
    };
  };

  const eventPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    id: string,
  ): Promise<Page> => {
    const event = await events.getEvent(scope, id);
    return {
      title: event.type,
      body: `${header(member, scope, csrf, 'events')}<main><h1>${escapeHtml(event.type)}</h1>
<section><p><code>${escapeHtml(event.id)}</code> · ${when(event.created * 1000)}</p>
<pre id="event-json">${escapeHtml(JSON.stringify(event, null, 2))}</pre></section>
<p><a href="/dashboard/${scope.organizationId}/${scope.mode}/events">All events</a></p></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string }; Querystring: EventsFilter }>(
    '/dashboard/:org/:mode/events',
    { schema: { hide: true, params: ScopeParams, querystring: EventsQuery } },
    async (request, reply) =>
      show(request, reply, (member, scope, csrf) => eventsPage(member, scope, csrf, request.query)),
  );

  app.get<{ Params: { org: string; mode: string; id: string } }>(
    '/dashboard/:org/:mode/events/:id',
    { schema: { hide: true, params: ObjectParams } },
    async (request, reply) =>
      show(request, reply, (member, scope, csrf) => eventPage(member, scope, csrf, request.params.id)),
  );
}
