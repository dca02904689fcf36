import { Type } from 'typebox';
import { type ResetChannel, type ResetContact, ResetRefused } from '../domains/vault/index.ts';
import { escapeHtml } from './html.ts';
import { hiddenFields, type PageForm } from './page-forms.ts';

/**
 * The one-time-code step of the hosted pages that create a passkey (the passkey reset page, and a
 * mandate's approval page for a user with none): send a code to the email or phone on the account,
 * then enter it. The code itself is the vault's (domains/vault/recovery.ts).
 */

/** The notice after a code was sent (`?done=sent`). */
export const CODE_SENT_NOTICE = 'We sent you a code. It works for 10 minutes.';

/** The forms of the code step: send a code, check it. */
export interface CodeForms {
  code: PageForm;
  verify: PageForm;
}

/** The body of the code steps' form posts (and of the pages' other forms). */
export const CodeFormBody = Type.Object({
  purpose: Type.Optional(Type.String({ maxLength: 20 })),
  nonce: Type.Optional(Type.String({ maxLength: 100 })),
  csrf: Type.Optional(Type.String({ maxLength: 200 })),
  channel: Type.Optional(Type.String({ maxLength: 10 })),
  code: Type.Optional(Type.String({ maxLength: 12 })),
});

function contactButtons(contacts: ResetContact[], path: string, form: PageForm, secondary: boolean): string {
  return contacts
    .map(
      (contact) =>
        `<form method="post" action="${escapeHtml(path)}/code" class="inline">${hiddenFields('code', form)}<input type="hidden" name="channel" value="${contact.channel}"><button type="submit" id="send-${contact.channel}"${secondary ? ' class="secondary"' : ''}>Send a code to ${escapeHtml(contact.masked)}</button></form>`,
    )
    .join('');
}

/**
 * The code steps (send a code to one of `contacts`, then enter it; `sentTo`: where the live code went)
 * under `path`: the passkey reset page, and a mandate's approval page for a user with no passkey.
 */
export function codeSteps(
  contacts: ResetContact[],
  sent: ResetChannel | null,
  path: string,
  forms: CodeForms,
  error?: string,
): string {
  const problem = error ? `<p class="problem" id="reset-error" role="alert">${escapeHtml(error)}</p>` : '';
  const sentTo = contacts.find((c) => c.channel === sent);
  if (!sentTo)
    return `<section id="reset-prove"><h2>First, prove it is you</h2>
<p>We send a one-time code to the email or phone on your account. Choose where:</p>
<div class="actions">${contactButtons(contacts, path, forms.code, false)}</div>${problem}</section>`;
  return `<section id="reset-code"><h2>Enter your code</h2>
<p>We sent a 6-digit code to ${escapeHtml(sentTo.masked)}.</p>
<form method="post" action="${escapeHtml(path)}/verify" id="code-form">${hiddenFields('verify', forms.verify)}
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="12" required>
${problem}<button type="submit" id="check-code">Check the code</button></form>
<p class="hint">No code? Send a new one:</p><div class="actions">${contactButtons(contacts, path, forms.code, true)}</div></section>`;
}

/** The channel a "Send a code" button names; refused when it names none. */
export function channelOf(value: string | undefined): ResetChannel {
  if (value === 'email' || value === 'phone') return value;
  throw new ResetRefused('invalid_request', 'Choose where to send the code.');
}
