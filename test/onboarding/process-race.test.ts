import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startServer } from '../cli/process.ts';
import { until } from '../faults/helpers.ts';
import { useCrashApp } from '../helpers/crash.ts';
import { onPostgres } from '../helpers/databases.ts';
import { formBody } from '../links/helpers.ts';
import { onboardingForm } from './helpers.ts';

/**
 * Hosted onboarding raced by two `purser serve --role api` processes on one database (SQLite, as a
 * single-host install runs it; PostgreSQL with PURSER_TEST_POSTGRES): the same step posted to both at
 * once has one winner, and nothing is made twice (one cardholder per email, one completion and one
 * `completed` event per session).
 *
 * To make the two requests meet, the test holds a lock while they arrive and lets it go once both
 * processes wait for it. SQLite: the write lock, which the completion's write transaction waits for
 * in SQLite's busy handler (it sleeps the process's one thread: Linux names it `hrtimer_nanosleep` in
 * /proc/{pid}/wchan). That transaction is the first write such a request makes, and nothing else
 * writes in the servers meanwhile: the sessions are made, and everything is read back, by the test's
 * own app, and the servers get no request with an organization's credential (its request log row
 * would be written 250 ms later, and that write could be the one found waiting). PostgreSQL: the
 * email's advisory lock, or the session's row, seen waited for in pg_stat_activity. Either way both
 * requests have read what they read before that point (the session open, no cardholder with the
 * email) when the lock is let go. With the email check moved before the transaction, or the
 * completed-session guard removed, this file fails on both databases (2026-11-28).
 */
const asleepInSqlite = (pid: number) => readFileSync(`/proc/${pid}/wchan`, 'utf8').includes('nanosleep');

describe(`onboarding raced across two processes on one ${onPostgres ? 'PostgreSQL' : 'SQLite'} database`, () => {
  const f = useCrashApp('Onboarding race', { LOG_LEVEL: 'info' });
  const RETURN_URL = 'https://platform.example/onboarding/done';
  const ada = {
    first_name: 'Ada',
    last_name: 'Lovelace',
    date_of_birth: '1990-12-10',
    phone_number: '+14155550123',
  };

  const ROLE_API = ['serve', '--role', 'api'];
  let pids: number[] = [];
  async function servers() {
    const started = await Promise.all([startServer(f.env, ROLE_API), startServer(f.env, ROLE_API)]);
    f.children.push(...started.map((s) => s.child));
    pids = started.map((s) => s.child.pid!);
    return started.map((s) => s.url);
  }

  /**
   * What the test holds while the requests arrive, so that both stop just before their decisive
   * write: on SQLite the database's write lock (the completion's write transaction waits for it); on
   * PostgreSQL the email's advisory lock (`lockName`, taken first in that transaction) or the
   * session's row (its completion updates it).
   */
  type Hold = { email: string } | { sessionId: string };

  async function holdSqlite() {
    const lock = new Database(f.env.DATABASE_URL!.replace(/^sqlite:/, ''));
    lock.exec('begin immediate');
    // Once seen asleep in the busy handler a process stays in it until the lock is let go.
    const waiting = new Set<number>();
    return {
      bothWaiting: () => {
        for (const pid of pids) if (asleepInSqlite(pid)) waiting.add(pid);
        return waiting.size === pids.length;
      },
      release: async () => {
        lock.exec('commit');
        lock.close();
      },
    };
  }

  async function holdPostgres(hold: Hold) {
    const client = new pg.Client({ connectionString: f.env.DATABASE_URL });
    await client.connect();
    await client.query('begin');
    if ('email' in hold)
      await client.query('select pg_advisory_xact_lock(hashtext($1))', [
        `cardholder-email:${f.org.organization_id}:false:${hold.email}`,
      ]);
    else
      await client.query('select id from cardholder_onboarding_sessions where id = $1 for update', [
        hold.sessionId,
      ]);
    return {
      // Sessions of this file's database waiting for a lock: the two requests, and nothing else here waits.
      bothWaiting: async () =>
        (
          await client.query(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
          )
        ).rows[0].n === 2,
      release: async () => {
        await client.query('commit');
        await client.end();
      },
    };
  }

  /** Sends both requests while the test holds `hold`; lets it go once both processes wait for it. */
  async function together(hold: Hold, requests: () => Promise<Response>[]): Promise<Response[]> {
    const held = onPostgres ? await holdPostgres(hold) : await holdSqlite();
    let answers: Promise<Response[]>;
    try {
      answers = Promise.all(requests());
      await until(held.bothWaiting, 4_000, 'both processes waiting for the held lock');
    } finally {
      await held.release();
    }
    return answers;
  }

  let counter = 0;
  /** A new session (made by the test's app: no write in the servers), its page opened on `server`. */
  async function openSession(server: string) {
    const session = await f.ctx.onboarding.create(
      { organizationId: f.org.organization_id, livemode: false },
      { external_user_id: `race-${++counter}`, return_url: RETURN_URL },
    );
    const path = new URL(session.url as string).pathname;
    const page = await fetch(`${server}${path}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    return { id: session.id, path, cookie, details: onboardingForm(await page.text(), 'details') };
  }

  const submit = (server: string, page: { path: string; cookie: string }, fields: Record<string, string>) =>
    fetch(`${server}${page.path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: page.cookie },
      body: formBody(fields),
    });

  const cardholders = async () =>
    (
      await f.ctx.db
        .selectFrom('cardholders')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;
  const completions = async (sessionId: string) =>
    (
      await f.ctx.db
        .selectFrom('events')
        .select('data')
        .where('type', '=', 'cardholder_onboarding_session.completed')
        .execute()
    ).filter((event) => JSON.parse(event.data).id === sessionId).length;
  const status = (sessionId: string) =>
    f.ctx.db
      .selectFrom('cardholder_onboarding_sessions')
      .select(['id', 'status', 'claimed_existing_cardholder'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();

  it('two sessions with one new email, each on its own process: one cardholder, the other is sent a code', async () => {
    const [a, b] = await servers();
    for (let round = 0; round < 3; round++) {
      const email = `race-${round}@example.com`;
      const [first, second] = await Promise.all([openSession(a!), openSession(b!)]);
      const before = Number(await cardholders());
      const answers = await together({ email }, () => [
        submit(a!, first, { ...first.details, ...ada, email }),
        submit(b!, second, { ...second.details, ...ada, email }),
      ]);
      expect(answers.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 303]);
      const loser = answers.find((r) => r.status === 200)!;
      expect(await loser.text()).toContain('we sent you a code');
      expect(Number(await cardholders()), `round ${round}`).toBe(before + 1);
      const states = [await status(first.id), await status(second.id)];
      expect(states.map((s) => s.status).sort()).toEqual(['completed', 'open']);
      const winner = states.find((s) => s.status === 'completed')!;
      expect(await completions(winner.id), `round ${round}`).toBe(1);
    }
  }, 120_000);

  it('one session’s details posted to both processes at once: both go back to the platform, it completes once', async () => {
    const [a, b] = await servers();
    for (let round = 0; round < 3; round++) {
      const page = await openSession(a!);
      const before = Number(await cardholders());
      // Two tabs, the email corrected in one: each submit finds no cardholder with its own email, so only
      // the session's own guard (completed once) stops the second from making a cardholder and completing.
      const fields = (email: string) => ({ ...page.details, ...ada, email });
      const answers = await together({ sessionId: page.id }, () => [
        submit(a!, page, fields(`twice-${round}-a@example.com`)),
        submit(b!, page, fields(`twice-${round}-b@example.com`)),
      ]);
      for (const answer of answers) expect(answer.status, await answer.clone().text()).toBeLessThan(500);
      // Both browsers go back to the platform (the second finds the session done); one made it.
      expect(answers.map((r) => r.status)).toEqual([303, 303]);
      expect(
        new Set(answers.map((r) => new URL(r.headers.get('location')!).searchParams.get('session_id'))),
      ).toEqual(new Set([page.id]));
      expect(Number(await cardholders()), `round ${round}`).toBe(before + 1);
      expect(await status(page.id)).toEqual({
        id: page.id,
        status: 'completed',
        claimed_existing_cardholder: 0,
      });
      expect(await completions(page.id), `round ${round}`).toBe(1);
    }
  }, 120_000);
});
