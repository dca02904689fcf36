import { escapeHtml, htmlDocument } from '../../core/html.ts';
import type { CallbackOutcome } from './service.ts';

/** The HTTP status and the words of each callback outcome. */
export function callbackPage(outcome: CallbackOutcome): {
  status: 200 | 400 | 502;
  title: string;
  body: string;
} {
  switch (outcome.outcome) {
    case 'connected':
      return {
        status: 200,
        title: 'Messaging provider connected',
        body: outcome.canSend
          ? '<p>Wallet, vault and approval links will now be sent from your organization’s own numbers.</p>'
          : '<p>The connection was made, but without the <code>messages:send</code> permission: links keep going out ' +
            'through the default channel. Connect again and allow sending to use your own numbers.</p>',
      };
    case 'denied':
      return {
        status: 200,
        title: 'Connection not approved',
        body: '<p>Access was declined at the messaging provider, so nothing was connected. Start again from your dashboard to connect.</p>',
      };
    case 'invalid_state':
      return {
        status: 400,
        title: 'This connection link does not work',
        body: '<p>It was already used, has expired, or did not come from Purser. Nothing was connected. Start the connection again.</p>',
      };
    case 'provider_error':
      return {
        status: 502,
        title: 'The messaging provider did not complete the connection',
        body: `<p>Nothing was connected. Start the connection again.</p><p class="hint">Provider answer: ${escapeHtml(outcome.error)}</p>`,
      };
  }
}

/** The page the operator's browser lands on, in the hosted pages' one layout and stylesheet. */
export function page(nonce: string, title: string, body: string): string {
  return htmlDocument({
    nonce,
    title,
    style: '',
    body: `<main><h1>${escapeHtml(title)}</h1><section>${body}</section>
<p class="hint">You can close this window.</p></main>`,
  });
}
