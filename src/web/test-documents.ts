import { ApiError } from '../core/errors.ts';
import type { RoutesApp } from '../core/schemas.ts';
import { type SampleFile, sampleSet } from '../domains/kyc/index.ts';
import { escapeHtml, referenceDocument } from './html.ts';

/**
 * Synthetic identity documents for sandbox testing, at /sandbox/test-documents: licence fronts and
 * backs with real AAMVA PDF417 barcodes, a passport page with a valid MRZ, and degraded photos.
 * They describe nobody, so they are public. Generated once, on first request.
 */
export async function testDocumentRoutes(app: RoutesApp): Promise<void> {
  let samples: Promise<(SampleFile & { bytes: Buffer })[]> | null = null;
  const load = () => {
    samples ??= sampleSet();
    return samples;
  };
  const hide = { schema: { hide: true } };

  app.get('/sandbox/test-documents', hide, async (_request, reply) => {
    const rows = (await load())
      .map(
        (s) =>
          `<li><a href="/sandbox/test-documents/${escapeHtml(s.file)}">${escapeHtml(s.file)}</a>: ${escapeHtml(s.description)}</li>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return referenceDocument({
      title: 'Sandbox test documents',
      body: `<p>Synthetic documents for testing identity verification with a sandbox
credential: upload a front and a back (base64) to <code>/api/v2/kyc/documents/front</code> and <code>/back</code>.</p>
<ul>${rows}</ul>`,
    });
  });

  app.get<{ Params: { file: string } }>('/sandbox/test-documents/:file', hide, async (request, reply) => {
    const sample = (await load()).find((s) => s.file === request.params.file);
    if (!sample) throw new ApiError(404, 'not_found', `No test document ${request.params.file}.`);
    reply.type(sample.file.endsWith('.jpg') ? 'image/jpeg' : 'image/png');
    reply.header('content-disposition', `attachment; filename="${sample.file}"`);
    return sample.bytes;
  });
}
