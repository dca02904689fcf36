import { escapeHtml } from '../../core/html.ts';
import type { CallbackOutcome } from './service.ts';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a;background:#f6f7f9}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 1px 3px #0002}
h1{font-size:1.3rem;margin:0 0 .5rem}p{margin:.5rem 0}.muted{color:#555;font-size:.9rem}`;

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
        body: `<p>Nothing was connected. Start the connection again.</p><p class="muted">Provider answer: ${escapeHtml(outcome.error)}</p>`,
      };
  }
}

export function page(nonce: string, title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style nonce="${nonce}">${STYLE}</style></head><body><main><h1>${escapeHtml(title)}</h1>${body}
<p class="muted">You can close this window.</p></main></body></html>`;
}
