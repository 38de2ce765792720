import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@agentgov/core/testing';
import { createPostgresSink } from '@agentgov/plugin-sink-postgres';
import { startPostgres, type PostgresCluster } from '@agentgov/plugin-sink-postgres/testing';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/chromium.js';
import {
  expectedCounts,
  makeDashboardHome,
  recordedOutbox,
  startDashboard,
  type DashboardHome,
  type RunningDashboard,
} from './fixture.js';

/** Screenshots of every view: `AGENTGOV_SCREENSHOTS=docs/dashboard` writes the ones docs/dashboard.md shows. */
const SHOTS = process.env['AGENTGOV_SCREENSHOTS'] ?? makeTempDir('dashboard-shots-');
mkdirSync(SHOTS, { recursive: true });

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A page that records every console error and failed request, to assert there were none. */
async function openPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  return { page, problems };
}

async function visit(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30_000 });
}

async function shot(page: Page, name: string): Promise<void> {
  const file = join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect(readFileSync(file).subarray(0, 8).equals(PNG), file).to.equal(true);
}

const text = async (page: Page, testId: string) =>
  (await page.getByTestId(testId).first().innerText()).replace(/,/g, '');

function browserSuite(
  source: string,
  setUp: () => Promise<{ home: DashboardHome; args: string[]; teardown?: () => Promise<void> }>,
) {
  describe(`agentgov dashboard in Chromium (${source})`, function () {
    this.timeout(240_000);
    let browser: Browser;
    let home: DashboardHome;
    let dashboard: RunningDashboard;
    let teardown: (() => Promise<void>) | undefined;

    before(async () => {
      const made = await setUp();
      teardown = made.teardown;
      home = made.home;
      dashboard = await startDashboard(made.args, home.env);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await dashboard?.daemon.stop();
      await teardown?.();
    });

    it('shows the overview of the last week of data with the numbers SQL counts, and draws its charts', async () => {
      const { page, problems } = await openPage(browser);
      await visit(page, `${dashboard.url}/`);
      // No period in the URL: the last seven days up to the last call, written into the URL so it can be shared.
      expect(new URL(page.url()).searchParams.get('since')).to.equal('2026-11-19');
      expect(new URL(page.url()).searchParams.get('until')).to.equal('2026-11-25');
      const expected = expectedCounts(home.db, '2026-11-19T00:00:00.000Z', '2026-11-26T00:00:00.000Z');
      expect(Number(await text(page, 'total-calls'))).to.equal(expected['calls']);
      expect(Number(await text(page, 'total-risky'))).to.equal(expected['risky']);
      for (const action of ['allow', 'warn', 'ask', 'deny'])
        expect(Number(await text(page, `action-${action}`)), action).to.equal(expected[action]);
      expect(await page.locator('canvas').count()).to.equal(2);
      const drawn = await page
        .locator('canvas')
        .first()
        .evaluate((c) => (c as unknown as { toDataURL(): string }).toDataURL().length);
      expect(drawn).to.be.greaterThan(5000); // a blank canvas encodes to a few hundred bytes
      expect(await page.getByTestId('top-rules').innerText()).to.contain('filesystem.rm_home');
      await shot(page, 'overview');
      expect(problems).to.deep.equal([]);
    });

    it('narrows the sessions list with the filter form, and the filtered list is a URL', async () => {
      const { page, problems } = await openPage(browser);
      await visit(page, `${dashboard.url}/sessions`);
      const all = Number(await text(page, 'session-total'));
      await page.selectOption('select[name="agent"]', 'codex');
      await page.selectOption('select[name="action"]', 'deny');
      await Promise.all([page.waitForURL(/agent=codex/), page.click('form.filters button[type="submit"]')]);
      await page.waitForSelector('body[data-ready="true"]');
      const url = new URL(page.url());
      // The default period (the last week of data) stays in the form and so in the URL.
      expect(Object.fromEntries(url.searchParams)).to.deep.equal({
        since: '2026-11-19',
        until: '2026-11-25',
        agent: 'codex',
        action: 'deny',
      });
      const filtered = Number(await text(page, 'session-total'));
      expect(filtered).to.be.greaterThan(0).and.lessThan(all);
      const rows = await page.locator('[data-testid="sessions"] tbody tr').allInnerTexts();
      expect(rows.length).to.equal(Math.min(filtered, 50));
      expect(rows.every((row) => row.split('\t')[1] === 'codex')).to.equal(true);
      await shot(page, 'sessions');
      // The same URL opened afresh shows the same list.
      await visit(page, url.href);
      expect(Number(await text(page, 'session-total'))).to.equal(filtered);
      expect(problems).to.deep.equal([]);
    });

    it("opens a session's timeline and a denied call's evidence with the rules that matched", async () => {
      const denial = home.calls.find((c) => c.verdict?.decision === 'deny' && c.assessment.evidence.rules.length > 0)!;
      const { page, problems } = await openPage(browser);
      await visit(page, `${dashboard.url}/sessions/${denial.event.framework}/${denial.event.session_id}`);
      const inSession = home.calls.filter((c) => c.event.session_id === denial.event.session_id);
      expect(await page.locator('[data-testid="timeline"] tbody tr').count()).to.equal(Math.min(inSession.length, 50));
      await shot(page, 'session');
      await Promise.all([
        page.waitForURL(/\/calls\//),
        page.click(`a[href="/calls/${encodeURIComponent(denial.event.id)}"]`),
      ]);
      await page.waitForSelector('body[data-ready="true"]');
      const rules = await page.getByTestId('rules').first().innerText();
      for (const hit of denial.assessment.evidence.rules) expect(rules).to.contain(hit.rule_id);
      expect(await page.getByTestId('verdict').innerText())
        .to.contain('deny')
        .and.contain('agentgov-risk-engine');
      expect(await page.getByTestId('arguments').innerText()).to.contain(
        String(Object.values(denial.event.arguments)[0]),
      );
      await shot(page, 'call');
      expect(problems).to.deep.equal([]);
    });

    it('shows a bad filter as the API explains it, and an unknown call as not found', async () => {
      const { page } = await openPage(browser);
      await visit(page, `${dashboard.url}/sessions?level=severe`);
      expect(await page.getByTestId('error').innerText()).to.contain("bad_parameter: level: 'severe' is not one of");
      await visit(page, `${dashboard.url}/calls/no-such-call`);
      expect(await page.getByTestId('error').innerText()).to.contain('not_found');
    });
  });
}

browserSuite('system.db', async () => {
  const home = makeDashboardHome(2000);
  return { home, args: ['--db', home.db] };
});

browserSuite('PostgreSQL team store', async () => {
  const cluster: PostgresCluster = await startPostgres();
  const url = await cluster.createDatabase('dashboard_browser');
  const home = makeDashboardHome(
    2000,
    `plugins:\n  - plugin: '@agentgov/plugin-sink-postgres'\n    options:\n      url: '${url}'\n`,
  );
  const sink = createPostgresSink({ url }, home.root);
  const records = recordedOutbox(home.db);
  for (let i = 0; i < records.length; i += 500) await sink.writeBatch(records.slice(i, i + 500));
  await sink.close();
  return { home, args: ['--store', 'postgres'], teardown: async () => cluster.destroy() };
});
