import { escapeHtml } from '../../core/html.ts';
import type { Organization } from '../../db/schema.ts';
import type { EmailMessage } from '../notifications/index.ts';

/** Placeholders an organization's branded template may use. */
interface TemplateValues {
  code: string;
  organization_name: string;
  expires_in_minutes: string;
}

const DEFAULT_SUBJECT = 'Your {{organization_name}} code: {{code}}';
const DEFAULT_TEXT =
  'Your verification code for {{organization_name}} is {{code}}.\n\n' +
  'It expires in {{expires_in_minutes}} minutes. If you did not ask for it, ignore this email.';
const DEFAULT_HTML =
  '<p>Your verification code for <strong>{{organization_name}}</strong> is</p>' +
  '<p style="font-size:28px;letter-spacing:6px;font-weight:bold">{{code}}</p>' +
  '<p>It expires in {{expires_in_minutes}} minutes. If you did not ask for it, ignore this email.</p>';

function render(template: string, values: TemplateValues, encode: (v: string) => string = (v) => v): string {
  return template.replace(
    /\{\{\s*(code|organization_name|expires_in_minutes)\s*\}\}/g,
    (_, key: keyof TemplateValues) => encode(values[key]),
  );
}

/** The connect email: the organization's branded template when it has one, else the default. */
export function connectEmail(
  organization: Organization,
  to: string,
  code: string,
  expiresInMinutes: number,
): EmailMessage {
  const values = { code, organization_name: organization.name, expires_in_minutes: String(expiresInMinutes) };
  const branded = organization.connect_email_text !== null || organization.connect_email_html !== null;
  const text = branded ? organization.connect_email_text : DEFAULT_TEXT;
  const html = branded ? organization.connect_email_html : DEFAULT_HTML;
  return {
    to,
    subject: render(organization.connect_email_subject ?? DEFAULT_SUBJECT, values),
    text: render(text ?? (html ?? '').replace(/<[^>]+>/g, ''), values),
    ...(html ? { html: render(html, values, escapeHtml) } : {}),
  };
}

export function connectSms(organization: Organization, code: string, expiresInMinutes: number): string {
  return `${code} is your ${organization.name} verification code. It expires in ${expiresInMinutes} minutes.`;
}
