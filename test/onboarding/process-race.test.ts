import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startServer } from '../cli/process.ts';
import { until } from '../faults/helpers.ts';
import { useCrashApp } from '../helpers/crash.ts';
import { onPostgres } from '../helpers/databases.ts';
import { formBody } from '../links/helpers.ts';
import { onboardingForm } from './helpers.ts';

/**
 * Hosted onboarding raced by two `purser serve --role api` processes on one SQLite database, as a
 * single-host install runs it: the same step posted to both at once has one winner, and nothing is
 * made twice (one cardholder per email, one completion and one `completed` event per session).
 *
 * To make the two requests meet, the test holds SQLite's write lock while they arrive and lets it go
 * once both processes wait for it in SQLite's busy handler (it sleeps the process's one thread:
 * Linux names it `hrtimer_nanosleep` in /proc/{pid}/wchan). Not yet shown: that both have read
 * before that wait. With the in-transaction email check or the completed-session guard removed from
 * dist/, this file still passed (2026-11-28): the wait may come at an earlier write of the request.
 */
const asleepInSqlite = (pid: number) => readFileSync(`/proc/${pid}/wchan`, 'utf8').includes('nanosleep');

describe.skipIf(onPostgres)('onboarding raced across two SQLite processes', () => {
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

  /** Sends both requests while the test holds the write lock; lets it go once both processes wait for it. */
  async function together(requests: () => Promise<Response>[]): Promise<Response[]> {
    const lock = new Database(f.env.DATABASE_URL!.replace(/^sqlite:/, ''));
    lock.exec('begin immediate');
    let answers: Promise<Response[]>;
    try {
      answers = Promise.all(requests());
      // Once seen asleep in the busy handler a process stays in it until the lock is let go.
      const waiting = new Set<number>();
      await until(
        () => {
          for (const pid of pids) if (asleepInSqlite(pid)) waiting.add(pid);
          return waiting.size === pids.length;
        },
        4_000,
        'both processes waiting for the write lock',
      );
    } finally {
      lock.exec('commit');
      lock.close();
    }
    return answers;
  }

  let counter = 0;
  /** A new session, and its page opened on `server`: the path, the browser's cookie and its details form. */
  async function openSession(server: string) {
    // Through the server, not the test's own app: a write here (its request log) would wait for the lock too.
    const session = await fetch(`${server}/api/v1/cardholder_onboarding_sessions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.org.sandbox.api_key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ external_user_id: `race-${++counter}`, return_url: RETURN_URL }),
    });
    expect(session.status).toBe(201);
    const { id, url } = await session.json();
    const path = new URL(url).pathname;
    const page = await fetch(`${server}${path}`);
    expect(page.status).toBe(200);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    return { id: id as string, path, cookie, details: onboardingForm(await page.text(), 'details') };
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
  const status = async (server: string, sessionId: string) =>
    (
      await fetch(`${server}/api/v1/cardholder_onboarding_sessions/${sessionId}`, {
        headers: { authorization: `Bearer ${f.org.sandbox.api_key}` },
      })
    ).json();

  it('two sessions with one new email, each on its own process: one cardholder, the other is sent a code', async () => {
    const [a, b] = await servers();
    for (let round = 0; round < 3; round++) {
      const email = `race-${round}@example.com`;
      const [first, second] = await Promise.all([openSession(a!), openSession(b!)]);
      const before = Number(await cardholders());
      const answers = await together(() => [
        submit(a!, first, { ...first.details, ...ada, email }),
        submit(b!, second, { ...second.details, ...ada, email }),
      ]);
      expect(answers.map((r) => r.status).sort(), `round ${round}`).toEqual([200, 303]);
      const loser = answers.find((r) => r.status === 200)!;
      expect(await loser.text()).toContain('we sent you a code');
      expect(Number(await cardholders())).toBe(before + 1);
      const states = [await status(a!, first.id), await status(b!, second.id)];
      expect(states.map((s) => s.status).sort()).toEqual(['completed', 'open']);
      const winner = states.find((s) => s.status === 'completed')!;
      expect(await completions(winner.id)).toBe(1);
    }
  }, 120_000);

  it('one session’s details posted to both processes at once: both go back to the platform, it completes once', async () => {
    const [a, b] = await servers();
    for (let round = 0; round < 3; round++) {
      const email = `twice-${round}@example.com`;
      const page = await openSession(a!);
      const before = Number(await cardholders());
      const fields = { ...page.details, ...ada, email };
      const answers = await together(() => [submit(a!, page, fields), submit(b!, page, fields)]);
      for (const answer of answers) expect(answer.status, await answer.clone().text()).toBeLessThan(500);
      // Both browsers go back to the platform (the second finds the session done); one made it.
      expect(answers.map((r) => r.status)).toEqual([303, 303]);
      expect(
        new Set(answers.map((r) => new URL(r.headers.get('location')!).searchParams.get('session_id'))),
      ).toEqual(new Set([page.id]));
      expect(Number(await cardholders())).toBe(before + 1);
      expect(await status(b!, page.id)).toMatchObject({
        status: 'completed',
        claimed_existing_cardholder: false,
      });
      expect(await completions(page.id)).toBe(1);
    }
  }, 120_000);
});
