import { sql } from 'kysely';
import type { AppContext } from '../../../context.ts';
import { DAY } from '../../../core/clock.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { livemodeColumn } from '../../../core/tenant.ts';
import type { Executor } from '../../../db/index.ts';
import { type ConsoleKit, type OrgScope, ScopeParams } from '../kit.ts';

/**
 * Overview: the last 30 days of this mode, transactions and webhook success per day, drawn here as
 * SVG (no script, nothing from elsewhere) with the same figures in a table beside the charts.
 */

const DAYS = 30;

interface Day {
  /** Days since the Unix epoch (UTC). */
  day: number;
  transactions: number;
  declined: number;
  succeeded: number;
  failed: number;
}

/** Per UTC day since `from` (ms): rows of `table` of the organization and mode, counted by `status`. */
async function perDay(
  db: Executor,
  table: 'card_transactions' | 'webhook_deliveries',
  time: 'created_at' | 'completed_at',
  scope: OrgScope,
  from: number,
) {
  return db
    .selectFrom(table)
    .select([
      sql<number>`${sql.ref(time)} / ${sql.lit(DAY)}`.as('day'),
      'status',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .where('organization_id', '=', scope.organizationId)
    .where('livemode', '=', livemodeColumn(scope.livemode))
    .where(time, '>=', from)
    .groupBy([sql`${sql.ref(time)} / ${sql.lit(DAY)}`, 'status'])
    .execute();
}

async function lastDays(db: Executor, scope: OrgScope, now: number): Promise<Day[]> {
  const today = Math.floor(now / DAY);
  const from = (today - DAYS + 1) * DAY;
  const days = new Map<number, Day>();
  for (let day = today - DAYS + 1; day <= today; day++)
    days.set(day, { day, transactions: 0, declined: 0, succeeded: 0, failed: 0 });
  for (const row of await perDay(db, 'card_transactions', 'created_at', scope, from)) {
    const day = days.get(Number(row.day));
    if (!day) continue;
    day.transactions += Number(row.n);
    if (row.status === 'DECLINED') day.declined += Number(row.n);
  }
  for (const row of await perDay(db, 'webhook_deliveries', 'completed_at', scope, from)) {
    const day = days.get(Number(row.day));
    if (!day) continue;
    if (row.status === 'succeeded') day.succeeded += Number(row.n);
    if (row.status === 'failed') day.failed += Number(row.n);
  }
  return [...days.values()];
}

const dateOf = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);
const successRate = (d: Day) =>
  d.succeeded + d.failed === 0 ? null : d.succeeded / (d.succeeded + d.failed);

/** A bar chart of 30 values (null: no bar), with its largest value and first and last dates marked. */
function barChart(id: string, label: string, days: Day[], value: (d: Day) => number | null, top: number) {
  const width = 600;
  const height = 160;
  const plot = { left: 40, bottom: 20, top: 10 };
  const slot = (width - plot.left) / days.length;
  const scale = (v: number) => ((height - plot.bottom - plot.top) * v) / (top || 1);
  const bars = days
    .map((d, i) => {
      const v = value(d);
      if (v === null) return '';
      const h = Math.max(v > 0 ? 1 : 0, scale(v));
      const x = plot.left + i * slot + 1;
      const y = height - plot.bottom - h;
      return `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${(slot - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="#1f4fd1"><title>${dateOf(d.day)}: ${id === 'webhooks' ? `${Math.round(v * 100)} %` : v}</title></rect>`;
    })
    .join('');
  const axis = height - plot.bottom;
  const topLabel = id === 'webhooks' ? '100 %' : String(top);
  return `<svg id="chart-${id}" role="img" aria-labelledby="chart-${id}-title" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">
<title id="chart-${id}-title">${label}, per day, the last ${DAYS} days</title>
<line x1="${plot.left}" y1="${axis}" x2="${width}" y2="${axis}" stroke="#8a94a0"/>
<line x1="${plot.left}" y1="${plot.top}" x2="${width}" y2="${plot.top}" stroke="#eef1f4"/>
<text x="${plot.left - 4}" y="${plot.top + 4}" font-size="11" text-anchor="end" fill="#56606b">${topLabel}</text>
<text x="${plot.left - 4}" y="${axis}" font-size="11" text-anchor="end" fill="#56606b">0</text>
${bars}
<text x="${plot.left}" y="${height - 4}" font-size="11" fill="#56606b">${dateOf(days[0]!.day)}</text>
<text x="${width}" y="${height - 4}" font-size="11" text-anchor="end" fill="#56606b">${dateOf(days.at(-1)!.day)}</text>
</svg>`;
}

export async function overviewPages(app: RoutesApp, ctx: AppContext, { header, show }: ConsoleKit) {
  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/overview',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) =>
      show(request, reply, async (member, scope, csrf) => {
        const days = await lastDays(ctx.db, scope, ctx.clock.now());
        const most = Math.max(0, ...days.map((d) => d.transactions));
        const total = days.reduce((sum, d) => sum + d.transactions, 0);
        const succeeded = days.reduce((sum, d) => sum + d.succeeded, 0);
        const failed = days.reduce((sum, d) => sum + d.failed, 0);
        const rate =
          succeeded + failed === 0 ? '—' : `${((100 * succeeded) / (succeeded + failed)).toFixed(1)} %`;
        const rows = [...days]
          .reverse()
          .map((d) => {
            const r = successRate(d);
            return `<tr><td>${dateOf(d.day)}</td><td class="num">${d.transactions}</td><td class="num">${d.declined}</td><td class="num">${d.succeeded}</td><td class="num">${d.failed}</td><td class="num">${r === null ? '—' : `${Math.round(r * 100)} %`}</td></tr>`;
          })
          .join('');
        return {
          title: 'Overview',
          body: `${header(member, scope, csrf, 'overview')}<main><h1>Overview</h1>
<div class="overview"><div class="charts">
<section><h2>Transactions per day</h2><p class="figure" id="transactions-total">${total}</p><p class="hint">in the last ${DAYS} days</p>${barChart('transactions', 'Transactions', days, (d) => d.transactions, most)}</section>
<section><h2>Webhook deliveries that succeeded</h2><p class="figure" id="webhook-rate">${rate}</p><p class="hint">${succeeded} succeeded, ${failed} failed (every attempt spent), by the day they ended</p>${barChart('webhooks', 'Webhook success', days, successRate, 1)}</section>
</div>
<section class="figures"><h2>The figures</h2><table id="overview"><tr><th>day (UTC)</th><th class="num">txns</th><th class="num">declined</th><th class="num">hooks ok</th><th class="num">failed</th><th class="num">ok %</th></tr>${rows}</table></section></div></main>`,
        };
      }),
  );
}
