import { sql } from 'kysely';
import { DAY } from '../../../core/clock.ts';
import type { RoutesApp } from '../../../core/schemas.ts';
import { livemodeColumn } from '../../../core/tenant.ts';
import type { Executor } from '../../../db/index.ts';
import { type ConsoleKit, type ConsoleServices, type OrgScope, ScopeParams } from '../kit.ts';

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

const OK = '#1f4fd1';
const REFUSED = '#d4453a';

/** One day's bar: its title, and its parts from the axis up (what went through, then what did not). */
interface Bar {
  title: string;
  parts: { value: number; fill: string }[];
}

/**
 * A bar chart of 30 days (a day without a bar: nothing to show), each bar stacked from its parts and
 * titled with its figure; the top of the scale and the first and last dates marked.
 */
function barChart(
  id: string,
  label: string,
  days: Day[],
  bar: (d: Day) => Bar | null,
  top: number,
  topLabel: string,
) {
  const width = 600;
  const height = 180;
  const plot = { left: 52, bottom: 24, top: 12 };
  const slot = (width - plot.left) / days.length;
  const axis = height - plot.bottom;
  const scale = (v: number) => ((axis - plot.top) * v) / (top || 1);
  const bars = days
    .map((d, i) => {
      const shown = bar(d);
      if (!shown) return '';
      const x = (plot.left + i * slot + 1).toFixed(1);
      let y = axis;
      const rects = shown.parts
        .filter((part) => part.value > 0)
        .map((part) => {
          const h = Math.max(1, scale(part.value));
          y -= h;
          return `<rect x="${x}" y="${y.toFixed(1)}" width="${(slot - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${part.fill}"/>`;
        })
        .join('');
      return `<g><title>${dateOf(d.day)}: ${shown.title}</title>${rects}</g>`;
    })
    .join('');
  const text = (x: number, y: number, anchor: string, value: string) =>
    `<text x="${x}" y="${y}" font-size="15" text-anchor="${anchor}" fill="#56606b">${value}</text>`;
  return `<svg id="chart-${id}" role="img" aria-labelledby="chart-${id}-title" viewBox="0 0 ${width} ${height}" width="100%" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">
<title id="chart-${id}-title">${label}, per day, the last ${DAYS} days</title>
<line x1="${plot.left}" y1="${axis}" x2="${width}" y2="${axis}" stroke="#8a94a0"/>
<line x1="${plot.left}" y1="${plot.top}" x2="${width}" y2="${plot.top}" stroke="#eef1f4"/>
${text(plot.left - 6, plot.top + 5, 'end', topLabel)}
${text(plot.left - 6, axis, 'end', '0')}
${bars}
${text(plot.left, height - 4, 'start', dateOf(days[0]!.day))}
${text(width, height - 4, 'end', dateOf(days.at(-1)!.day))}
</svg>`;
}

/** Transactions: those that went through, the declined ones stacked above them. */
const transactionBar = (d: Day): Bar | null =>
  d.transactions === 0
    ? null
    : {
        title: `${d.transactions}${d.declined > 0 ? `, ${d.declined} declined` : ''}`,
        parts: [
          { value: d.transactions - d.declined, fill: OK },
          { value: d.declined, fill: REFUSED },
        ],
      };

/** Webhook success: the share that succeeded, the share that failed above it (a day's bar is whole). */
function webhookBar(d: Day): Bar | null {
  const rate = successRate(d);
  if (rate === null) return null;
  return {
    title: `${Math.round(rate * 100)} %`,
    parts: [
      { value: rate, fill: OK },
      { value: 1 - rate, fill: REFUSED },
    ],
  };
}

export async function overviewPages(
  app: RoutesApp,
  { clock, db }: Pick<ConsoleServices, 'clock' | 'db'>,
  { header, show }: ConsoleKit,
) {
  app.get<{ Params: { org: string; mode: string } }>(
    '/dashboard/:org/:mode/overview',
    { schema: { hide: true, params: ScopeParams } },
    async (request, reply) =>
      show(request, reply, async (member, scope, csrf) => {
        const days = await lastDays(db, scope, clock.now());
        const most = Math.max(0, ...days.map((d) => d.transactions));
        const total = days.reduce((sum, d) => sum + d.transactions, 0);
        const declined = days.reduce((sum, d) => sum + d.declined, 0);
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
<section><h2>Transactions per day</h2><p class="figure" id="transactions-total">${total}</p><p class="hint">in the last ${DAYS} days, ${declined} declined (red)</p>${barChart('transactions', 'Transactions', days, transactionBar, most, String(most))}</section>
<section><h2>Webhook deliveries that succeeded</h2><p class="figure" id="webhook-rate">${rate}</p><p class="hint">${succeeded} succeeded, ${failed} failed (red; every attempt spent), by the day they ended</p>${barChart('webhooks', 'Webhook success', days, webhookBar, 1, '100 %')}</section>
</div>
<section class="figures"><h2>The figures</h2><table id="overview"><tr><th>day (UTC)</th><th class="num">txns</th><th class="num">declined</th><th class="num">hooks ok</th><th class="num">failed</th><th class="num">ok %</th></tr>${rows}</table></section></div></main>`,
        };
      }),
  );
}
