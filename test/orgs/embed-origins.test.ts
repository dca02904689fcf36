import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameAncestorsDirective, parseEmbedOrigin } from '../../src/domains/orgs/embed-origins.ts';
import { expectError, useOrgApp } from '../helpers/fixtures.ts';
import { expectState, getState, newUser, pagePath, startKycApp } from '../kyc/api/helpers.ts';

const f = useOrgApp({ start: startKycApp });

const put = (token: string, body: unknown) => f.t.call('PUT', '/api/v2/embed_origins', { token, body });
const get = (token: string) => f.t.call('GET', '/api/v2/embed_origins', { token });

/**
 * Values that are not exactly `scheme://host[:port]`: CSP injection (the list becomes the hosted
 * page's `frame-ancestors`), whitespace and control characters, anything past the origin, hosts that
 * are not one DNS name or IP address, bad ports, and plain http outside loopback.
 */
const REFUSED = [
  // Another directive or source smuggled into the header.
  'https://a.example;sandbox',
  'https://a.example; sandbox',
  'https://a.example;script-src *',
  'https://a.example,https://b.example',
  'https://a.example https://b.example',
  'https://a.example；sandbox', // fullwidth semicolon: IDNA maps it to ';'
  'https://a%3Bsandbox.example',
  'https://a.example/;sandbox',
  "https://a.example'",
  '"https://a.example"',
  "'self'",
  "'none'",
  '*',
  'https://*.example.com',
  'https://a.example:*',
  // Whitespace and control characters, at either end or inside.
  ' https://a.example',
  'https://a.example ',
  'https://a.example\t',
  'https://a.example\r\nX-Injected: 1',
  'https://a.example\n',
  'https://a.example\u0000',
  'https://a.\u200bexample',
  'https://a.example\u00a0',
  // More than an origin.
  'https://a.example//',
  'https://a.example/path',
  'https://app.example.com/?q=1',
  'https://a.example?',
  'https://a.example#',
  'https://a.example#frag',
  'https://user@a.example',
  'https://user:pass@app.example.com',
  'https://a.example\\path',
  // Not one valid host.
  'https://a_b.example',
  'https://-a.example',
  'https://a-.example',
  'https://a..example',
  'https://a.example.',
  `https://${'a'.repeat(64)}.example`,
  'https://%61pp.example',
  'https://0x7f.0.0.1',
  'https://127.1',
  'https://2130706433',
  'https://010.0.0.1',
  'https://[::1',
  'https://[not-an-ip]',
  'https://[fe80::1%25eth0]',
  'https://',
  // Bad ports.
  'https://a.example:0',
  'https://a.example:65536',
  'https://a.example:',
  'https://a.example:80a',
  'https://a.example:+443',
  'https://a.example:443:443',
  // Not an https origin.
  'http://app.example.com',
  'http://10.0.0.1:8080',
  'ftp://files.example.com',
  'javascript://a.example',
  'data:text/html,x',
  'blob:https://a.example',
  'https:a.example',
  'https:/a.example',
  '//a.example',
  'a.example',
  '',
  'not a url',
];

describe('PUT /api/v2/embed_origins', () => {
  it('replaces the whole list, canonical and without duplicates, and GET reads it back', async () => {
    expect((await get(f.sandbox)).json()).toEqual({ object: 'embed_origins', origins: [] });
    const res = await put(f.sandbox, {
      origins: [
        'https://App.Example.com',
        'https://app.example.com:443/',
        'HTTPS://SHOP.example.com:8443',
        'http://localhost:5173',
        'http://127.0.0.1:8080',
        'http://[::1]:3000',
        'https://bücher.example',
        'https://192.0.2.10:9443',
        'https://[2001:DB8:0:0::1]:65535',
        'http://app.localhost:80',
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      object: 'embed_origins',
      origins: [
        'https://app.example.com',
        'https://shop.example.com:8443',
        'http://localhost:5173',
        'http://127.0.0.1:8080',
        'http://[::1]:3000',
        'https://xn--bcher-kva.example',
        'https://192.0.2.10:9443',
        'https://[2001:db8::1]:65535',
        'http://app.localhost',
      ],
    };
    expect(res.json()).toEqual(expected);
    expect((await get(f.sandbox)).json()).toEqual(expected);

    // A second PUT replaces, it does not merge; an empty list clears.
    expect((await put(f.sandbox, { origins: ['https://other.example'] })).json().origins).toEqual([
      'https://other.example',
    ]);
    expect((await put(f.sandbox, { origins: [] })).json().origins).toEqual([]);
  });

  it('answers 400 invalid_origin naming the refused value, and changes nothing', async () => {
    await put(f.sandbox, { origins: ['https://kept.example'] });
    for (const bad of REFUSED) {
      const res = await put(f.sandbox, { origins: ['https://fine.example', bad] });
      if (bad.includes('\u0000')) {
        // NUL never reaches the origin parser: the edge refuses it in any string (docs/decisions.md).
        expect(expectError(res, 400, 'invalid_request').field_errors).toHaveProperty(['origins.1']);
        continue;
      }
      const error = expectError(res, 400, 'invalid_origin');
      expect(error.message).toContain(bad);
      expect(error.field_errors).toHaveProperty('origins[1]');
    }
    expect((await get(f.sandbox)).json().origins).toEqual(['https://kept.example']);
  });

  it('answers 400 invalid_request past 50 origins, without origins, or with a non-list', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `https://s${i}.example.com`);
    expect(
      expectError(await put(f.sandbox, { origins: many }), 400, 'invalid_request').field_errors,
    ).toHaveProperty('origins');
    expect((await put(f.sandbox, { origins: many.slice(0, 50) })).statusCode).toBe(200);
    expectError(await put(f.sandbox, {}), 400, 'invalid_request');
    expectError(await put(f.sandbox, { origins: 'https://a.example' }), 400, 'invalid_request');
    expectError(await put(f.sandbox, { origins: [42] }), 400, 'invalid_request');
  });

  it('keeps one list per mode and per organization; needs a platform token', async () => {
    await put(f.sandbox, { origins: ['https://test.example'] });
    await put(f.production, { origins: ['https://live.example'] });
    expect((await get(f.sandbox)).json().origins).toEqual(['https://test.example']);
    expect((await get(f.production)).json().origins).toEqual(['https://live.example']);
    const other = await f.t.createOrg('Other');
    expect((await get(await f.t.platformToken(other.sandbox))).json().origins).toEqual([]);
    expectError(await f.t.call('GET', '/api/v2/embed_origins'), 401, 'unauthorized');
    expectError(await put('nope', { origins: [] }), 401, 'unauthorized');
  });
});

/** The served CSP of a new user's hosted verification page, as its list of directives. */
async function hostedPageCsp(token: string, production = false): Promise<string[]> {
  const user = await newUser(f.t, token, { production });
  const state = expectState(await getState(f.t, user), 'awaiting_documents');
  const res = await f.t.request({ method: 'GET', url: pagePath(state.iframe_url as string) });
  expect(res.statusCode).toBe(200);
  return String(res.headers['content-security-policy']).split('; ');
}

const DIRECTIVES = [
  'default-src',
  'script-src',
  'style-src',
  'img-src',
  'media-src',
  'connect-src',
  'form-action',
  'base-uri',
  'frame-ancestors',
];
// CSP Level 3 §2.3.1 host-source, as the serializer writes it: no quotes, separators or spaces.
const SOURCE = /^https?:\/\/(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(?:\d{1,5}|\*))?$/;

describe("the hosted page's Content-Security-Policy", () => {
  it('serves the embed origins, serialized from their parsed parts, as frame-ancestors', async () => {
    const o = await f.t.createOrg('Framing');
    const live = await f.t.platformToken(o.production);
    const test = await f.t.platformToken(o.sandbox);
    await put(live, {
      origins: ['https://App.Example.com:443/', 'https://[2001:DB8::1]:8443', 'https://bücher.example'],
    });
    const csp = await hostedPageCsp(live, true);
    expect(csp.map((directive) => directive.split(' ')[0])).toEqual(DIRECTIVES);
    expect(csp.at(-1)).toBe(
      'frame-ancestors https://app.example.com https://[2001:db8::1]:8443 https://xn--bcher-kva.example',
    );
    await put(test, { origins: ['https://staging.example.com'] });
    expect((await hostedPageCsp(test)).at(-1)).toBe(
      'frame-ancestors http://localhost:* http://127.0.0.1:* https://staging.example.com',
    );
  });

  it('ignores stored values the strict parser refuses (written before it), in the header and in GET', async () => {
    const o = await f.t.createOrg('Legacy');
    const live = await f.t.platformToken(o.production);
    await put(live, { origins: ['https://kept.example'] });
    // What the old parser let through: URL() keeps ';', ',' and quotes in a host.
    await f.t.ctx.db
      .updateTable('embed_origins')
      .set({
        origins: JSON.stringify([
          'https://a.example;sandbox',
          "https://b.example;script-src 'unsafe-inline'",
          'https://c.example,https://d.example',
          'https://App.Kept.example:443',
          'https://kept.example',
        ]),
      })
      .where('organization_id', '=', o.organization_id)
      .where('livemode', '=', 1)
      .execute();
    const csp = await hostedPageCsp(live, true);
    expect(csp.map((directive) => directive.split(' ')[0])).toEqual(DIRECTIVES);
    expect(csp.at(-1)).toBe('frame-ancestors https://app.kept.example https://kept.example');
    expect((await get(live)).json().origins).toEqual(['https://app.kept.example', 'https://kept.example']);

    // Only invalid values stored: nobody may frame the page.
    await f.t.ctx.db
      .updateTable('embed_origins')
      .set({ origins: JSON.stringify(['https://a.example;sandbox']) })
      .where('organization_id', '=', o.organization_id)
      .execute();
    expect((await hostedPageCsp(live, true)).at(-1)).toBe("frame-ancestors 'none'");
  });

  it('refuses every probe of REFUSED in the header builder too', () => {
    for (const bad of REFUSED) expect(parseEmbedOrigin(bad)).toHaveProperty('problem');
    expect(frameAncestorsDirective(REFUSED, { loopback: false })).toBe("frame-ancestors 'none'");
  });

  it('only ever accepts values whose serialization is one CSP host-source, stable under re-parsing', () => {
    // Origin-shaped values with hostile characters mixed into every part.
    const unit = fc.oneof(
      { weight: 30, arbitrary: fc.constantFrom(...'abz09-ü'.split('')) },
      { weight: 1, arbitrary: fc.constantFrom(...'._;,\'"* %；．\t\n\u0000\u200b'.split('')) },
    );
    const label = fc.string({ unit, minLength: 1, maxLength: 6 });
    const candidate = fc
      .tuple(
        fc.constantFrom('https://', 'http://', 'HTTPS://', 'ftp://', 'https:/', ''),
        fc.oneof(
          fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')),
          fc.constantFrom(
            'localhost',
            'app.localhost',
            '127.0.0.1',
            '127.1',
            '[::1]',
            '[2001:DB8::1]',
            '[::1',
          ),
        ),
        fc.constantFrom('', ':443', ':80', ':8080', ':0', ':65536', ':', ':*', ':1;'),
        fc.constantFrom('', '/', '//', '/x', '?', '#', ';sandbox', ' ', '\n', ',https://b.example'),
      )
      .map((parts) => parts.join(''));
    let accepted = 0;
    fc.assert(
      fc.property(candidate, (value) => {
        const parsed = parseEmbedOrigin(value);
        if ('problem' in parsed) return;
        accepted += 1;
        expect(parsed.origin).toMatch(SOURCE);
        expect(parseEmbedOrigin(parsed.origin)).toEqual(parsed);
        expect(frameAncestorsDirective([parsed.origin], { loopback: false })).toBe(
          `frame-ancestors ${parsed.origin}`,
        );
      }),
      { numRuns: 3000 },
    );
    // The property is not vacuous: some of the candidates (about 2%) are origins.
    expect(accepted).toBeGreaterThan(30);
  });
});
