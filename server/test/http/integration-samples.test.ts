import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { API_KEY_PLACEHOLDER, type IntegrationView, type SampleLanguage, sendSamples } from '@herald/shared';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner } from '../helpers/members.ts';
import { listen } from '../send/send-client.ts';

const run = promisify(execFile);

/**
 * The integration page's facts and samples: the page's data comes from the deployment's
 * configuration, and the samples it shows, with the developer's key put where the placeholder
 * is, send a mail through a live Herald when run as they are: curl in a shell, Node, and
 * Python with its standard library.
 */
describe('integration page', () => {
  let t: TestApp;
  let base: string;
  let f: Sender;
  let token: string;

  before(async () => {
    t = await buildTestApp({
      env: { HERALD_PUBLIC_URL: 'https://mail.herald.example', HERALD_HOSTNAME: 'smtp.herald.example' },
    });
    base = await listen(t);
    const owner = await createOwner(t, 'integrator');
    token = owner.token;
    f = await createSender(t.core.database, { accountId: owner.ctx.accountId });
  });
  after(() => t?.close());

  it('tells where to send from the configuration', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/v3/api/mail/integration',
      headers: bearer(token),
    });
    assert.equal(response.statusCode, 200, response.body);
    const view = response.json().data as IntegrationView;
    assert.deepEqual(view, {
      apiBaseUrl: 'https://mail.herald.example',
      docsUrl: '/docs/api/',
      smtpHost: 'smtp.herald.example',
      smtpPorts: [{ port: t.core.config.smtp.submissionPort, security: 'none' }],
    });
    const anonymous = await t.app.inject({ method: 'GET', url: '/v3/api/mail/integration' });
    assert.equal(anonymous.statusCode, 401);
  });

  async function runSample(language: SampleLanguage, subject: string): Promise<string> {
    const samples = sendSamples({
      baseUrl: base,
      apiUser: f.apiUser,
      from: `service@${f.domain}`,
      to: 'first@example.org',
      subject,
      html: "<p>It's Herald's first mail</p>",
    });
    const code = samples[language].replaceAll(API_KEY_PLACEHOLDER, f.apiKey);
    assert.ok(!samples[language].includes(f.apiKey), 'the sample as shown carries no key');
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-sample-'));
    try {
      if (language === 'curl') return (await run('bash', ['-c', code])).stdout;
      if (language === 'node') {
        const file = path.join(dir, 'send.mjs');
        await fs.writeFile(file, code);
        return (await run(process.execPath, [file])).stdout;
      }
      const file = path.join(dir, 'send.py');
      await fs.writeFile(file, code);
      return (await run('python3', [file])).stdout;
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }

  for (const language of ['curl', 'node', 'python'] as const) {
    it(`the ${language} sample sends a mail as shown`, async (context) => {
      if (language === 'python') {
        const python = await run('python3', ['--version']).catch(() => null);
        if (!python) return context.skip('no python3 on this machine');
      }
      const subject = `First mail by ${language}`;
      const output = await runSample(language, subject);
      assert.match(output, /statusCode['"]?:\s*200/, output);
      const stored = await t.core.database.db
        .selectFrom('messages')
        .innerJoin('message_contents', 'message_contents.message_id', 'messages.id')
        .select(['messages.subject', 'messages.from_address', 'message_contents.html'])
        .where('messages.subject', '=', subject)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, {
        subject,
        from_address: `service@${f.domain}`,
        html: "<p>It's Herald's first mail</p>",
      });
    });
  }
});
