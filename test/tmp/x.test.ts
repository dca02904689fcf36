import { it } from 'vitest';
import { startTestApp } from '../helpers/harness.ts';
it('x', async () => {
  const t = await startTestApp();
  const r = await t.call('GET', '/api/v2/openapi.json');
  console.log(r.statusCode, r.body.slice(0, 300));
  console.log(t.logs.lines?.slice?.(-5) ?? '');
  await t.close();
});
