/**
 * The suite's vitest projects (vitest.config.ts) and the files the PostgreSQL run repeats. An entry
 * is a test file or a folder ending in `/`; paths are from the repository root.
 *
 * - `unit`: no app and no database (parsers, rules, models), files sharing worker processes.
 * - `api`: the real app in the test process, over `inject`, on a database of the file's own; files
 *   share worker processes (the tree is imported once per worker, not once per file). Every file
 *   not listed elsewhere is here.
 * - `slow`: what starts processes (`purser` commands, servers, crash tests), drives a browser, reads
 *   documents by OCR or runs a chain.
 */
import { readdirSync } from 'node:fs';

export type Entry = string;

/** Processes, browsers, OCR and chains. */
export const SLOW: Entry[] = [
  // Processes: `purser` commands and servers spawned from the compiled build, crash tests.
  'packages/sdk/test/pack.test.ts',
  'test/cli/cli.test.ts',
  'test/cli/compiled.test.ts',
  'test/cli/encryption-key.test.ts',
  'test/cli/start.test.ts',
  'test/cli/trigger-process.test.ts',
  'test/cards/crash.test.ts',
  'test/cards/lithic/platform-asa.test.ts',
  'test/events/fault.test.ts',
  'test/events/listen.test.ts',
  'test/events/serve.test.ts',
  'test/events/tls.test.ts',
  'test/faults/',
  'test/funding/cli.test.ts',
  'test/funding/crash.test.ts',
  'test/funding/evm-crash.test.ts',
  'test/ledger/verify-cli.test.ts',
  'test/onboarding/process-race.test.ts',
  'test/purchases/acp-merchants.test.ts',
  'test/purchases/crash.test.ts',
  'test/vault/vault-link.test.ts',
  'test/vault/vault-page.test.ts',
  'test/web/object-shapes.test.ts',
  'test/web/openapi-lint.test.ts',
  // Browsers (Chromium through playwright-core).
  'test/console/browser.test.ts',
  'test/kyc/browser/',
  'test/links/browser.test.ts',
  'test/mandates/approval-browser.test.ts',
  'test/mandates/consent-browser.test.ts',
  'test/oauth/browser/',
  'test/onboarding/browser.test.ts',
  'test/vault/browser.test.ts',
  // OCR: the document reader on rendered documents.
  'test/kyc/api/',
  'test/kyc/reader/pool.test.ts',
  'test/kyc/reader/read-document.test.ts',
  'test/kyc/reader/upload.test.ts',
  'test/web/test-documents.test.ts',
  // A local chain (anvil).
  'test/funding/evm-returns.test.ts',
  'test/funding/evm.test.ts',
  'test/links/wallet-page-evm.test.ts',
];

/** No app, no database. */
export const UNIT: Entry[] = [
  'packages/sdk/test/transport.test.ts',
  'packages/sdk/test/webhooks.test.ts',
  'test/cards/states.test.ts',
  'test/connect/states.test.ts',
  'test/core/event-loop.test.ts',
  'test/core/ids.test.ts',
  'test/core/refusal.test.ts',
  'test/core/sealed-columns.test.ts',
  'test/docs/',
  'test/projects.test.ts',
  'test/kyc/reader/aamva.test.ts',
  'test/kyc/reader/front.test.ts',
  'test/kyc/reader/header.test.ts',
  'test/kyc/reader/mrz.test.ts',
  'test/messaging/config.test.ts',
  'test/funding/evm-units.test.ts',
  'test/funding/flow-states.test.ts',
  'test/oauth/rules.test.ts',
  'test/purchases/acp-adapter.test.ts',
  'test/purchases/acp-protocol.test.ts',
  'test/purchases/authorization-states.test.ts',
  'test/purchases/llm-engine.test.ts',
  'test/purchases/states.test.ts',
];

/**
 * The files `npm test` runs again on PostgreSQL (`PURSER_TEST_DIALECT_ONLY`): those whose behaviour
 * depends on the database. The rest (HTTP shapes and validation, pages, browsers, OCR, protocols,
 * pure rules) goes through the same store code on either database, and runs on SQLite only. A test
 * written for PostgreSQL alone (`it.runIf(onPostgres)`) belongs here (test/projects.test.ts checks).
 */
export const DIALECT: Entry[] = [
  // Written for the database: they branch on what it does, or run on PostgreSQL only.
  'test/cli/start.test.ts',
  'test/events/notify.test.ts',
  'test/faults/database.test.ts',
  'test/faults/metrics.test.ts',
  // Statements, migrations, group commit, and the ledger.
  'test/db/',
  'test/ledger/',
  'test/kyc/api/personal-data.test.ts',
  // What a transaction, a row lock or a unique constraint decides: races, concurrency, crashes.
  'test/cards/concurrency-fuzz.test.ts',
  'test/cards/crash.test.ts',
  'test/connect/races.test.ts',
  'test/connect/refresh-grace.test.ts',
  'test/funding/concurrency.test.ts',
  'test/funding/crash.test.ts',
  'test/funding/ownership-model.test.ts',
  'test/mandates/budget.test.ts',
  'test/onboarding/process-race.test.ts',
  'test/purchases/crash.test.ts',
  // Stores that write SQL of their own (upserts, locks, counters, cursors), through their API.
  'test/auth/rate-limit.test.ts',
  'test/auth/token.test.ts',
  'test/cards/cards.test.ts',
  'test/cli/encryption-key.test.ts',
  'test/connect/throttle.test.ts',
  'test/console/console.test.ts',
  'test/core/idempotency.test.ts',
  'test/events/crypto-aead.test.ts',
  'test/events/events-api.test.ts',
  'test/events/reliability.test.ts',
  'test/events/retention.test.ts',
  'test/funding/flow.test.ts',
  'test/funding/wallet.test.ts',
  'test/links/wallet-links.test.ts',
  'test/merchant-accounts/merchant-links.test.ts',
  'test/messaging/delivery.test.ts',
  'test/oauth/flow.test.ts',
  'test/onboarding/cardholder-onboarding.test.ts',
  'test/orgs/embed-origins.test.ts',
  'test/platform-connect/platform-connect.test.ts',
  'test/purchases/buy.test.ts',
  'test/vault/approvals.test.ts',
];

export function matches(entries: Entry[], file: string): boolean {
  return entries.some((entry) => (entry.endsWith('/') ? file.startsWith(entry) : file === entry));
}

/** Every test file under these folders, as paths from the repository root. */
export function testFiles(root: string, folders: string[]): string[] {
  return folders
    .flatMap((folder) =>
      readdirSync(`${root}/${folder}`, { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.test.ts'))
        .map((path) => `${folder}/${path}`),
    )
    .sort();
}

/** The files of each project, out of `files`. */
export function byProject(files: string[]): Record<'unit' | 'api' | 'slow', string[]> {
  return {
    unit: files.filter((file) => matches(UNIT, file)),
    api: files.filter((file) => !matches(UNIT, file) && !matches(SLOW, file)),
    slow: files.filter((file) => matches(SLOW, file)),
  };
}
