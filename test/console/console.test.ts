import { describe, expect, it } from 'vitest';
import { uniqueEmail, useOrgApp } from '../helpers/fixtures.ts';
import { consoleSteps } from './helpers.ts';

/** The console's rules over HTTP: sign-in, cookies, CSRF, roles, scoping and framing. */
const f = useOrgApp({ name: 'Console Co' });
const { signIn, member, post } = consoleSteps(f);

describe('the console', () => {
  it('signs in by a random code: 111111 never works; the cookie is HttpOnly and SameSite=Lax; never framed', async () => {
    const email = uniqueEmail('sandbox-code');
    await f.t.ctx.members.add(f.org.organization_id, email, 'owner');
    const { verified, real } = await signIn(email, () => '111111');
    expect(real).not.toBe('111111');
    expect(verified.statusCode).toBe(400);
    expect(verified.headers['set-cookie']).toBeUndefined();
    const { cookie, page } = await member('owner');
    expect(cookie).toMatch(/^purser_member=mss_/);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).not.toMatch(/<script|src="http/);
    const signedOut = await f.t.request({ method: 'GET', url: '/dashboard' });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe('/dashboard/sign-in');
  });

  it('a viewer sees the pages but every change is 403 and changes nothing', async () => {
    const viewer = await member('viewer');
    const before = await f.t.ctx.orgs.credentials(f.org.organization_id, 'sandbox');
    const url = `/dashboard/${f.org.organization_id}/sandbox/credentials`;
    for (const action of ['rotate_key', 'create_client']) {
      const response = await post(url, viewer.cookie, { csrf: viewer.csrf, action, name: 'x' });
      expect(response.statusCode).toBe(403);
    }
    const hooks = await post(`/dashboard/${f.org.organization_id}/sandbox/webhooks`, viewer.cookie, {
      csrf: viewer.csrf,
      action: 'create',
      url: 'https://hooks.example/in',
    });
    expect(hooks.statusCode).toBe(403);
    expect(await f.t.ctx.orgs.credentials(f.org.organization_id, 'sandbox')).toEqual(before);
    expect(
      (await f.t.ctx.events.listEndpoints({ organizationId: f.org.organization_id, livemode: false }, {}))
        .data,
    ).toEqual([]);
  });

  it('a form without the session’s CSRF token is 403; another organization is 404; actions are audited', async () => {
    const owner = await member('owner');
    const url = `/dashboard/${f.org.organization_id}/sandbox/credentials`;
    expect((await post(url, owner.cookie, { csrf: 'forged', action: 'rotate_key' })).statusCode).toBe(403);
    expect((await post(url, owner.cookie, { action: 'rotate_key' })).statusCode).toBe(403);
    const other = await f.t.createOrg('Not yours');
    const foreign = await f.t.request({
      method: 'GET',
      url: `/dashboard/${other.organization_id}/sandbox/credentials`,
      headers: { cookie: owner.cookie },
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await post(`/dashboard/${other.organization_id}/sandbox/credentials`, owner.cookie, {
          csrf: owner.csrf,
          action: 'rotate_key',
        })
      ).statusCode,
    ).toBe(404);
    const created = await post(url, owner.cookie, {
      csrf: owner.csrf,
      action: 'create_client',
      name: 'Reporting',
    });
    expect(created.statusCode).toBe(200);
    expect(created.body).toMatch(/cs_test_[A-Za-z0-9]+/);
    const log = await f.t.ctx.members.auditLog(f.org.organization_id);
    expect(log.filter((e) => e.action === 'client.created')).toEqual([
      expect.objectContaining({ member_email: owner.email, livemode: 0 }),
    ]);
    // The production switch scopes the page: production credentials, not sandbox ones.
    const production = await f.t.request({
      method: 'GET',
      url: `/dashboard/${f.org.organization_id}/production/credentials`,
      headers: { cookie: owner.cookie },
    });
    expect(production.body).toContain('sk_live_');
    expect(production.body).not.toContain('sk_test_');
  });

  it('owners invite members by email; developers cannot; the invitee signs in to a page of the organization', async () => {
    const owner = await member('owner');
    const developer = await member('developer');
    const url = `/dashboard/${f.org.organization_id}/sandbox/members`;
    const invitee = uniqueEmail('invitee');
    const refused = await post(url, developer.cookie, {
      csrf: developer.csrf,
      action: 'invite',
      email: invitee,
      role: 'viewer',
    });
    expect(refused.statusCode).toBe(403);
    const invited = await post(url, owner.cookie, {
      csrf: owner.csrf,
      action: 'invite',
      email: invitee,
      role: 'viewer',
    });
    expect(invited.statusCode).toBe(303);
    expect(invited.headers.location).toBe(`${url}?done=invited`);
    const page = await f.t.request({
      method: 'GET',
      url: invited.headers.location as string,
      headers: { cookie: owner.cookie },
    });
    expect(page.body).toContain('Invitation sent');
    expect(page.body).toContain(invitee);
    const email = (await f.t.ctx.notifications.sentMessages(1000)).find((m) => m.recipient === invitee);
    expect(email?.body).toContain('/dashboard');
    const { verified } = await signIn(invitee);
    expect(verified.statusCode).toBe(303);
    // An unknown ?done= shows nothing of the query.
    const odd = await f.t.request({
      method: 'GET',
      url: `${url}?done=%3Cb%3Ehi`,
      headers: { cookie: owner.cookie },
    });
    expect(odd.body).not.toContain('<b>hi');
    const log = await f.t.ctx.members.auditLog(f.org.organization_id);
    expect(log.filter((e) => e.action === 'member.invited.viewer')).toEqual([
      expect.objectContaining({ member_email: owner.email }),
    ]);
  });

  it('edits a destination (URL and events) and creates an extra API key; a viewer can do neither', async () => {
    const owner = await member('owner');
    const viewer = await member('viewer');
    const scope = { organizationId: f.org.organization_id, livemode: false };
    const endpoint = await f.t.ctx.events.createEndpoint(scope, {
      url: 'https://hooks.example/first',
      enabled_events: ['*'],
    });
    const hooks = `/dashboard/${f.org.organization_id}/sandbox/webhooks`;
    const edit = {
      action: 'edit',
      endpoint_id: endpoint.id,
      url: 'https://hooks.example/second',
      events: 'card.*',
    };
    expect((await post(hooks, viewer.cookie, { csrf: viewer.csrf, ...edit })).statusCode).toBe(403);
    expect((await f.t.ctx.events.getEndpoint(scope, endpoint.id)).url).toBe('https://hooks.example/first');
    const saved = await post(hooks, owner.cookie, { csrf: owner.csrf, ...edit });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${hooks}/${endpoint.id}?done=updated`);
    expect(await f.t.ctx.events.getEndpoint(scope, endpoint.id)).toMatchObject({
      url: 'https://hooks.example/second',
      enabled_events: ['card.*'],
    });
    const refused = await post(hooks, owner.cookie, { csrf: owner.csrf, ...edit, events: 'card.nope' });
    expect(refused.statusCode).toBe(400);

    const credentials = `/dashboard/${f.org.organization_id}/sandbox/credentials`;
    const created = await post(credentials, owner.cookie, { csrf: owner.csrf, action: 'create_key' });
    expect(created.statusCode).toBe(200);
    const key = /id="secret">(sk_test_[A-Za-z0-9]+)</.exec(created.body)?.[1];
    expect(key).toBeDefined();
    const v1 = await f.t.call('GET', '/api/v1/cardholders/ch_none', {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(v1.statusCode).toBe(404);
    const actions = (await f.t.ctx.members.auditLog(f.org.organization_id)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['webhook_endpoint.updated', 'api_key.created']));
  });

  it('signing out ends the session', async () => {
    const owner = await member('developer');
    const out = await post('/dashboard/sign-out', owner.cookie, { csrf: owner.csrf });
    expect(out.statusCode).toBe(303);
    const after = await f.t.request({
      method: 'GET',
      url: `/dashboard/${f.org.organization_id}/sandbox/credentials`,
      headers: { cookie: owner.cookie },
    });
    expect(after.statusCode).toBe(303);
  });
});
