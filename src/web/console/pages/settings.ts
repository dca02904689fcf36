import { ApiError } from '../../../core/errors.ts';
import { asApiError } from '../../../core/refusal.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import type { SignedInMember } from '../../../domains/members/index.ts';
import { MAX_EMBED_ORIGINS } from '../../../domains/orgs/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  type Feedback,
  hidden,
  messages,
  type OrgScope,
  type Page,
} from '../kit.ts';

/**
 * Settings: the embed origins of this mode (the same rules as `PUT /api/v2/embed_origins`), the
 * organization's reward share (the v1 revenue config, one for both modes) and the messaging-provider
 * connection of this mode (its status; disconnecting revokes it at the provider).
 */

/** The reward share as the v1 endpoint takes it: an integer 0 to 10000 basis points. */
function rewardShare(raw: string | undefined): number {
  const text = (raw ?? '').trim();
  const bps = /^\d{1,5}$/.test(text) ? Number(text) : Number.NaN;
  if (!(bps >= 0 && bps <= 10_000))
    throw new ApiError(400, 'invalid_request', 'reward_share_bps must be an integer from 0 to 10000.');
  return bps;
}

export async function settingsPages(
  app: RoutesApp,
  { cards, members, messaging, orgs }: Pick<ConsoleServices, 'cards' | 'members' | 'messaging' | 'orgs'>,
  { header, formPage }: ConsoleKit,
) {
  /** The messaging connection, or why there is none (never connected, or lost: the service says). */
  const messagingState = async (scope: OrgScope) => {
    try {
      return { connection: await messaging.connection(scope) };
    } catch (thrown) {
      const error = asApiError(thrown);
      if (error instanceof ApiError && error.status === 404) return { absent: error.message };
      throw error;
    }
  };

  const settingsPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: Feedback,
  ): Promise<Page> => {
    const [origins, revenue, provider] = await Promise.all([
      orgs.embedOrigins(scope),
      cards.revenueConfig(scope.organizationId),
      messagingState(scope),
    ]);
    const action = `/dashboard/${scope.organizationId}/${scope.mode}/settings`;
    const form = (name: string, fields: string) =>
      `<form method="post" action="${action}">${hidden('csrf', csrf)}${hidden('action', name)}${fields}</form>`;
    const connection = provider.connection;
    return {
      title: 'Settings',
      body: `${header(member, scope, csrf, 'settings')}<main><h1>Settings</h1>${messages(feedback)}
<section id="embed-origins"><h2>Embed origins (${scope.mode})</h2>
<p class="hint">The sites that may frame Purser’s hosted pages in an iframe. HTTPS only, except localhost and other loopback hosts; up to ${MAX_EMBED_ORIGINS}. Saving replaces the whole list.</p>
${form('embed_origins', `<label for="f_origins">One origin a line</label><br><textarea id="f_origins" name="origins" rows="5" spellcheck="false">${escapeHtml(origins.join('\n'))}</textarea><br><button type="submit">Save origins</button>`)}</section>
<section id="revenue"><h2>Reward share (both modes)</h2>
<p class="hint">The share of interchange routed to users as rewards, in basis points (10000 = all of it).</p>
${form('reward_share', `<label for="f_share">Basis points, 0 to 10000</label><br><input id="f_share" name="reward_share_bps" inputmode="numeric" value="${revenue.rewardShareBps}" required><button type="submit">Save reward share</button>`)}</section>
<section id="messaging"><h2>Messaging provider (${scope.mode})</h2>
${
  connection
    ? `<p>Connected since ${escapeHtml(connection.created_at.slice(0, 10))} · provider organizations <code>${escapeHtml(connection.provider_organization_ids.join(', '))}</code> · scopes <code>${escapeHtml(connection.scopes.join(' '))}</code>${connection.token_expires_at ? ` · token renews before ${escapeHtml(connection.token_expires_at.replace('T', ' ').slice(0, 16))}` : ''}</p>
${form('disconnect_messaging', '<button type="submit" class="secondary" id="disconnect-messaging">Disconnect</button>')}<p class="hint">Disconnecting revokes the grant at the provider; links are then sent by Purser’s own email and SMS.</p>`
    : `<p>Not connected. <span class="hint">${escapeHtml(provider.absent ?? '')}</span></p><p class="hint">An operator connects it with <code>POST /api/v2/provider/oauth/start</code> (docs/messaging.md).</p>`
}</section></main>`,
    };
  };

  formPage(app, 'settings', settingsPage, (request) => async (member, scope) => {
    const { body } = request;
    const back = (done: string) => ({
      redirect: `/dashboard/${scope.organizationId}/${scope.mode}/settings?done=${done}`,
    });
    switch (body.action) {
      case 'embed_origins': {
        const origins = (body.origins ?? '')
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter((line) => line !== '');
        if (origins.length > MAX_EMBED_ORIGINS)
          throw new ApiError(400, 'invalid_request', `At most ${MAX_EMBED_ORIGINS} origins.`);
        await orgs.setEmbedOrigins(scope, origins);
        await members.audit(member, scope, 'embed_origins.replaced', scope.organizationId);
        return back('origins');
      }
      case 'reward_share': {
        const bps = rewardShare(body.reward_share_bps);
        await cards.setRewardShare(scope.organizationId, bps);
        await members.audit(member, scope, 'revenue_config.updated', scope.organizationId);
        return back('reward_share');
      }
      case 'disconnect_messaging': {
        await messaging.disconnect(scope);
        await members.audit(member, scope, 'messaging_connection.deleted', scope.organizationId);
        return back('messaging');
      }
      default:
        throw new ApiError(400, 'invalid_request', 'Unknown action.');
    }
  });
}
