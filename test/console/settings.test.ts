import { beforeAll, describe, expect, it } from 'vitest';
import { connectProvider, useMessagingApp } from '../messaging/helpers.ts';
import { consoleSteps, type SignedIn } from './helpers.ts';

/**
 * The settings page over HTTP: embed origins (the API's rules), the reward share (the v1 rules), the
 * messaging connection (disconnect revokes it at the provider); viewers refused, every change audited.
 */
const { f, provider } = useMessagingApp({ name: 'Settings Co' });
const { member, post, get, page } = consoleSteps(f);

let owner: SignedIn;
let developer: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  owner = await member('owner');
  developer = await member('developer');
  viewer = await member('viewer');
});

const sandbox = () => ({ organizationId: f.org.organization_id, livemode: false });
const auditActions = async () =>
  (await f.t.ctx.members.auditLog(f.org.organization_id)).map((e) => `${e.member_email} ${e.action}`);
const problem = (html: string) => /<p class="problem" role="alert">([^<]*)<\/p>/.exec(html)?.[1];

describe('the settings page', () => {
  it('replaces the embed origins with the API’s rules: canonical, no duplicates, a refused one changes nothing', async () => {
    const saved = await post(page('settings'), developer.cookie, {
      csrf: developer.csrf,
      action: 'embed_origins',
      origins: 'https://App.Example.com\r\nhttp://localhost:3000\n\nhttps://app.example.com/\n',
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${page('settings')}?done=origins`);
    expect(await f.t.ctx.orgs.embedOrigins(sandbox())).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);
    const shown = await get(saved.headers.location as string, viewer.cookie);
    expect(shown.body).toContain('Embed origins saved.');
    expect(shown.body).toContain('https://app.example.com\nhttp://localhost:3000</textarea>');
    // The production list is its own.
    expect(await f.t.ctx.orgs.embedOrigins({ ...sandbox(), livemode: true })).toEqual([]);

    const refused = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'embed_origins',
      origins: 'https://ok.example\nhttp://plain.example',
    });
    expect(refused.statusCode).toBe(400);
    expect(problem(refused.body)).toContain('http://plain.example');
    expect(await f.t.ctx.orgs.embedOrigins(sandbox())).toEqual([
      'https://app.example.com',
      'http://localhost:3000',
    ]);

    const emptied = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'embed_origins',
      origins: '',
    });
    expect(emptied.statusCode).toBe(303);
    expect(await f.t.ctx.orgs.embedOrigins(sandbox())).toEqual([]);
  });

  it('sets the reward share from 0 to 10000 basis points and refuses anything else', async () => {
    const saved = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'reward_share',
      reward_share_bps: '2500',
    });
    expect(saved.statusCode).toBe(303);
    expect((await f.t.ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps).toBe(2500);
    expect((await get(page('settings', 'production'), viewer.cookie)).body).toContain('value="2500"');
    for (const value of ['10001', '-1', '12.5', 'abc', '', '1e3']) {
      const refused = await post(page('settings'), owner.cookie, {
        csrf: owner.csrf,
        action: 'reward_share',
        reward_share_bps: value,
      });
      expect(refused.statusCode, value).toBe(400);
      expect(problem(refused.body)).toContain('reward_share_bps');
    }
    expect((await f.t.ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps).toBe(2500);
  });

  it('shows the messaging connection and disconnects it (revoked at the provider); none left is 404', async () => {
    const before = await get(page('settings'), viewer.cookie);
    expect(before.body).toContain('Not connected.');
    expect(before.body).not.toContain('id="disconnect-messaging"');
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const connected = await get(page('settings'), viewer.cookie);
    expect(connected.body).toContain('id="disconnect-messaging"');
    expect((await get(page('settings', 'production'), viewer.cookie)).body).toContain('Not connected.');

    // A provider that cannot be reached: nothing changes, and the page says so.
    provider().failRevocations(503);
    const unreachable = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'disconnect_messaging',
    });
    expect(unreachable.statusCode).toBe(502);
    expect(problem(unreachable.body)).toContain('could not be reached');
    provider().failRevocations(null);
    expect((await f.t.ctx.messaging.connection(sandbox())).connected).toBe(true);

    const revokedBefore = provider().revoked.length;
    const done = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'disconnect_messaging',
    });
    expect(done.statusCode).toBe(303);
    expect(provider().revoked.length).toBeGreaterThan(revokedBefore);
    const after = await get(done.headers.location as string, viewer.cookie);
    expect(after.body).toContain('Messaging provider disconnected.');
    expect(after.body).toContain('Not connected.');
    const again = await post(page('settings'), owner.cookie, {
      csrf: owner.csrf,
      action: 'disconnect_messaging',
    });
    expect(again.statusCode).toBe(404);
  });

  it('refuses every change by a viewer (403, nothing changed) and without the CSRF token; audits each change', async () => {
    await f.t.ctx.orgs.setEmbedOrigins(sandbox(), ['https://kept.example']);
    expect((await connectProvider(f, f.sandbox)).statusCode).toBe(200);
    const share = (await f.t.ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps;
    const changes: Record<string, string>[] = [
      { action: 'embed_origins', origins: 'https://viewer.example' },
      { action: 'reward_share', reward_share_bps: '9000' },
      { action: 'disconnect_messaging' },
    ];
    const before = await auditActions();
    for (const change of changes) {
      expect((await post(page('settings'), viewer.cookie, { csrf: viewer.csrf, ...change })).statusCode).toBe(
        403,
      );
      expect((await post(page('settings'), owner.cookie, change)).statusCode).toBe(403);
      expect((await post(page('settings'), owner.cookie, { csrf: viewer.csrf, ...change })).statusCode).toBe(
        403,
      );
    }
    expect(await f.t.ctx.orgs.embedOrigins(sandbox())).toEqual(['https://kept.example']);
    expect((await f.t.ctx.cards.revenueConfig(f.org.organization_id)).rewardShareBps).toBe(share);
    expect((await f.t.ctx.messaging.connection(sandbox())).connected).toBe(true);
    expect(await auditActions()).toEqual(before);

    // Each earlier change is in the audit log, with its member.
    expect(before).toEqual(
      expect.arrayContaining([
        `${developer.email} embed_origins.replaced`,
        `${owner.email} embed_origins.replaced`,
        `${owner.email} revenue_config.updated`,
        `${owner.email} messaging_connection.deleted`,
      ]),
    );
    const log = await get(page('audit'), viewer.cookie);
    expect(log.body).toContain('revenue_config.updated');
  });

  it('answers 404 for another organization’s settings, and a page that does not exist', async () => {
    const theirs = await f.t.createOrg('Not theirs');
    const url = `/dashboard/${theirs.organization_id}/sandbox/settings`;
    expect((await get(url, owner.cookie)).statusCode).toBe(404);
    expect(
      (await post(url, owner.cookie, { csrf: owner.csrf, action: 'reward_share', reward_share_bps: '1' }))
        .statusCode,
    ).toBe(404);
    expect((await f.t.ctx.cards.revenueConfig(theirs.organization_id)).rewardShareBps).not.toBe(1);
    const missing = await get(page('nowhere'), owner.cookie);
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('text/html');
  });
});
