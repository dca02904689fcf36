import { ApiError } from '../../../core/errors.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { MEMBER_ROLES, type SignedInMember } from '../../../domains/members/index.ts';
import { escapeHtml } from '../../html.ts';
import {
  type ConsoleKit,
  type ConsoleServices,
  type Feedback,
  messages,
  type OrgScope,
  type Page,
  ScopeParams,
  when,
} from '../kit.ts';

/** Members (owners invite by email) and the audit log of every member action. */
export async function memberPages(
  app: RoutesApp,
  { members }: Pick<ConsoleServices, 'members'>,
  { header, show, formPage }: ConsoleKit,
) {
  const membersPage = async (
    member: SignedInMember,
    scope: OrgScope,
    csrf: string,
    feedback: Feedback,
  ): Promise<Page> => {
    const rows = (await members.membersOf(scope.organizationId))
      .map((m) => `<tr><td>${escapeHtml(m.email)}</td><td>${m.role}</td><td>${when(m.created_at)}</td></tr>`)
      .join('');
    const roles = ['viewer', 'developer', 'owner']
      .map(
        (role) =>
          `<label><input type="radio" name="role" value="${role}"${role === 'viewer' ? ' checked' : ''}> ${role}</label>`,
      )
      .join(' ');
    return {
      title: 'Members',
      body: `${header(member, scope, csrf, 'members')}<main><h1>Members</h1>${messages(feedback)}
<section><table id="members"><tr><th>email</th><th>role</th><th>since</th></tr>${rows}</table></section>
<section><h2>Invite</h2><p class="hint">Owners invite: the person gets an email and signs in with it.</p>
<form method="post" action="/dashboard/${scope.organizationId}/${scope.mode}/members"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="action" value="invite">
<label for="f_invite">Email</label><br><input id="f_invite" name="email" type="email" required><p>${roles}</p><button type="submit">Invite</button></form></section></main>`,
    };
  };

  const auditPage = async (member: SignedInMember, scope: OrgScope, csrf: string): Promise<Page> => {
    const entries = await members.auditLog(scope.organizationId);
    const rows = entries
      .map(
        (e) =>
          `<tr><td>${when(e.created_at)}</td><td>${escapeHtml(e.member_email)}</td><td>${e.livemode ? 'production' : 'sandbox'}</td><td>${escapeHtml(e.action)}</td><td><code>${escapeHtml(e.object_id ?? '')}</code></td></tr>`,
      )
      .join('');
    return {
      title: 'Audit log',
      body: `${header(member, scope, csrf, 'audit')}<main><h1>Audit log</h1><section><table id="audit" class="stack"><tr><th>time</th><th>member</th><th>mode</th><th>action</th><th>object</th></tr>${rows}</table></section></main>`,
    };
  };

  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/audit',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) => show(request, reply, (member, scope, csrf) => auditPage(member, scope, csrf)),
  );

  formPage(app, 'members', membersPage, (request) => async (member, scope) => {
    if (member.organizations.find((o) => o.id === scope.organizationId)?.role !== 'owner')
      throw new ApiError(403, 'access_denied', 'Only owners invite members.');
    const { body } = request;
    if (body.action !== 'invite') throw new ApiError(400, 'invalid_request', 'Unknown action.');
    const role = MEMBER_ROLES.find((r) => r === body.role);
    if (!role) throw new ApiError(400, 'invalid_request', 'Choose a role.');
    const added = await members.invite(member, scope.organizationId, body.email ?? '', role);
    await members.audit(member, scope, `member.invited.${role}`, added.member_id);
    return { redirect: `${request.url}?done=invited` };
  });
}
