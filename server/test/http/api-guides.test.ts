import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { LANGS, type Lang } from '@herald/shared';
import { GUIDE_PLACEHOLDERS } from '@herald/shared/samples/guide-samples';
import { SAMPLE_LANGUAGES } from '@herald/shared/samples/send-samples';
import type { ReceivedMail } from '@herald/test-peers';
import type { SMTPServer } from 'smtp-server';
import { GUIDE_TOPICS } from '../../src/http/docs/guides/guides-content.ts';
import { closeSmtp, listenSmtp } from '../../src/smtp/listen.ts';
import { createSubmissionServer } from '../../src/smtp/submission-server.ts';
import { createTemplate } from '../fixtures/factory.ts';
import { decodedBody, linksIn } from '../helpers/mail.ts';
import { waitFor } from '../helpers/wait.ts';
import { type PipelineHarness, startPipeline } from '../mta/pipeline-harness.ts';
import { listen, postForm } from '../send/send-client.ts';

const run = promisify(execFile);
const REPO_NODE_MODULES = path.resolve(import.meta.dirname, '../../../node_modules');
const PUBLIC_URL = 'https://mail.herald.example';
const SMTP_HOST = 'smtp.herald.example';

/**
 * The guides at /docs/guides/ as a developer reads them: the samples are taken from the served
 * HTML (unescaped, as a browser shows them), the placeholders replaced with a real API_USER, key,
 * domain and recipients, the deployment's host names pointed at this test's listeners, and then
 * run: curl in bash, Node as a module. What they did is checked where a user would see it: the
 * mails at the loopback MX, the HTTP answers, the webhook receiver sample's own verdict.
 */
describe('API guides', () => {
  let h: PipelineHarness;
  let base: string;
  let submission: SMTPServer;
  let smtpPort: number;
  let work: string;

  before(async () => {
    smtpPort = await freePort();
    h = await startPipeline({
      api: true,
      env: {
        HERALD_PUBLIC_URL: PUBLIC_URL,
        HERALD_HOSTNAME: SMTP_HOST,
        HERALD_SMTP_PORT: String(smtpPort),
        HERALD_WEBHOOK_ALLOW_PRIVATE: '1',
        HERALD_WEBHOOK_POLL_MS: '25',
      },
    });
    base = await listen(h.t);
    submission = createSubmissionServer(h.t.core);
    await listenSmtp(submission, smtpPort, '127.0.0.1');
    work = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-guides-'));
    // Node samples import their packages (nodemailer) as an installed project would.
    await fs.symlink(REPO_NODE_MODULES, path.join(work, 'node_modules'));
  });
  after(async () => {
    if (submission) await closeSmtp(submission);
    await h?.close();
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  async function page(url: string): Promise<string> {
    const response = await h.t.app.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 200, `${url}: ${response.body.slice(0, 200)}`);
    assert.match(String(response.headers['content-type']), /^text\/html/);
    return response.body;
  }

  /** Every sample on a page, as shown: `id/language` → text. */
  function samplesOf(html: string): Map<string, string> {
    const found = new Map<string, string>();
    for (const m of html.matchAll(
      /<pre data-sample="([^"]+)" data-lang="([^"]+)"><code>([\s\S]*?)<\/code><\/pre>/g,
    )) {
      found.set(`${m[1]}/${m[2]}`, unescapeHtml(m[3] ?? ''));
    }
    return found;
  }

  async function shown(topic: string, id: string, language: Runnable, lang: Lang = 'en') {
    const sample = samplesOf(await page(`/docs/guides/${topic}?lang=${lang}`)).get(`${id}/${language}`);
    assert.ok(sample, `${topic} shows ${id} in ${language}`);
    return sample;
  }

  /** The sample with this test's account, hosts and recipients where the page has placeholders. */
  function filled(code: string, extra: [string, string][] = []): string {
    const p = GUIDE_PLACEHOLDERS;
    let out = code
      .replaceAll(p.apiUser, h.sender.apiUser)
      .replaceAll(p.apiKey, h.sender.apiKey)
      .replaceAll(p.from, `news@${h.sender.domain}`)
      .replaceAll(PUBLIC_URL, base)
      .replaceAll(SMTP_HOST, '127.0.0.1');
    for (const to of p.to) out = out.replaceAll(to, to.replace('@example.org', '@dest.test'));
    for (const [from, to] of extra) out = out.replaceAll(from, to);
    return out;
  }

  async function runSample(language: Runnable, code: string): Promise<string> {
    if (language === 'curl') return (await run('bash', ['-c', code])).stdout;
    const name = `sample-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const file = path.join(work, `${name}.${language === 'node' ? 'mjs' : 'py'}`);
    await fs.writeFile(file, code);
    return (await run(language === 'node' ? process.execPath : 'python3', [file])).stdout;
  }

  const mailTo = (mails: ReceivedMail[], address: string) => {
    const mail = mails.find((m) => m.rcptTo.includes(address));
    assert.ok(mail, `a mail to ${address}`);
    return mail;
  };

  it('links every topic from the index and the API reference, in both languages, and back', async () => {
    for (const lang of LANGS) {
      const index = await page(`/docs/guides/?lang=${lang}`);
      assert.match(index, new RegExp(`<html lang="${lang}">`));
      assert.match(index, new RegExp(`href="/docs/api/\\?lang=${lang}"`), 'the index links the reference');
      for (const topic of GUIDE_TOPICS) {
        assert.ok(index.includes(`href="${topic}?lang=${lang}"`), `${lang} index links ${topic}`);
        const topicPage = await page(`/docs/guides/${topic}?lang=${lang}`);
        assert.match(topicPage, /href="\.\/\?lang=/, `${topic} links back to the index`);
      }
      const reference = await page(`/docs/api/?lang=${lang}`);
      assert.ok(reference.includes(`href="/docs/guides/?lang=${lang}"`), 'the reference links the guides');
    }
    const byCookie = await h.t.app.inject({ url: '/docs/guides/webhooks', cookies: { language: 'en' } });
    assert.match(byCookie.body, /<html lang="en">/);
    assert.equal((await h.t.app.inject({ url: '/docs/guides/no-such-topic' })).statusCode, 404);
    const css = await h.t.app.inject({ url: '/docs/guides/guides.css' });
    assert.equal(css.statusCode, 200);
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  it('shows every sample in every language on both language pages, with no inline script', async () => {
    for (const topic of GUIDE_TOPICS) {
      const pages = await Promise.all(LANGS.map((lang) => page(`/docs/guides/${topic}?lang=${lang}`)));
      const [zh, en] = pages.map(samplesOf) as [Map<string, string>, Map<string, string>];
      assert.deepEqual([...zh.keys()], [...en.keys()], `${topic}: the same samples in both languages`);
      const ids = new Set([...en.keys()].map((key) => key.split('/')[0]));
      for (const id of ids) {
        for (const language of SAMPLE_LANGUAGES) {
          assert.ok(en.get(`${id}/${language}`)?.trim(), `${topic}: ${id} in ${language}`);
        }
      }
      for (const html of pages) {
        assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script');
        assert.doesNotMatch(html, /\son[a-z]+=/, 'no inline handlers');
        assert.doesNotMatch(html, new RegExp(h.sender.apiKey), 'no key of anyone');
      }
    }
  });

  for (const language of ['curl', 'node', 'python'] as const) {
    it(`http-send: the ${language} sample sends to both recipients`, async (context) => {
      if (language === 'python' && !(await hasPython())) return context.skip('no python3 on this machine');
      h.mx.clear();
      const output = await runSample(language, filled(await shown('http-send', 'http-send', language)));
      assert.match(output, /statusCode['"]?:\s*200/, output);
      const mails = await h.mx.waitForMessages(2);
      assert.deepEqual(mails.flatMap((m) => m.rcptTo).sort(), ['ann@dest.test', 'bob@dest.test']);
      assert.equal(mails[0]?.subject, 'Hello from Herald');
      assert.match(decodedBody(mails[0]?.raw ?? ''), /this is our first mail/);
    });

    it(`smtp-send: the ${language} sample submits with X-SMTPAPI, one mail per recipient`, async (context) => {
      if (language === 'python' && !(await hasPython())) return context.skip('no python3 on this machine');
      h.mx.clear();
      const output = await runSample(language, filled(await shown('smtp-send', 'smtp-send', language)));
      if (language === 'node') assert.match(output, /^250 #.+#Queued/, output);
      const mails = await h.mx.waitForMessages(2);
      assert.equal(mailTo(mails, 'ann@dest.test').subject, 'Hello Ann');
      assert.equal(mailTo(mails, 'bob@dest.test').subject, 'Hello Bob');
      assert.match(decodedBody(mailTo(mails, 'bob@dest.test').raw), /Dear Bob, welcome aboard/);
      assert.equal(
        mailTo(mails, 'ann@dest.test').headers['x-smtpapi'],
        undefined,
        'X-SMTPAPI is not passed on',
      );
    });

    it(`x-smtpapi: the ${language} sample personalises each recipient's mail`, async (context) => {
      if (language === 'python' && !(await hasPython())) return context.skip('no python3 on this machine');
      h.mx.clear();
      const output = await runSample(language, filled(await shown('x-smtpapi', 'x-smtpapi', language)));
      assert.match(output, /"statusCode":\s*200/, output);
      const mails = await h.mx.waitForMessages(2);
      assert.equal(mailTo(mails, 'ann@dest.test').subject, 'Your code, Ann');
      assert.match(decodedBody(mailTo(mails, 'ann@dest.test').raw), /Ann, your code is 4821/);
      assert.match(decodedBody(mailTo(mails, 'bob@dest.test').raw), /Bob, your code is 9377/);
      assert.ok(!(mailTo(mails, 'bob@dest.test').headers.to?.[0] ?? '').includes('ann@'), 'individual mails');
    });
  }

  it('templates-and-variables: the curl and Node samples send an approved template with sub', async () => {
    await createTemplate(h.t.core.database, h.sender.accountId, {
      invokeName: GUIDE_PLACEHOLDERS.templateInvokeName,
      status: 'passed',
      subject: 'Order %order% has shipped',
      html: '<p>Dear %name%, your order %order% is on its way.</p>',
    });
    for (const language of ['curl', 'node'] as const) {
      h.mx.clear();
      const output = await runSample(
        language,
        filled(await shown('templates-and-variables', 'sendtemplate', language)),
      );
      assert.match(output, /"statusCode":\s*200/, output);
      const mails = await h.mx.waitForMessages(2);
      assert.equal(mailTo(mails, 'bob@dest.test').subject, 'Order A-1018 has shipped');
      assert.match(
        decodedBody(mailTo(mails, 'ann@dest.test').raw),
        /Dear Ann, your order A-1017 is on its way/,
      );
    }
  });

  it('webhooks: the Node receiver sample verifies Herald’s pushes and the curl test push, and refuses a forged one', async () => {
    const appKey = 'guide_app_key_0123456789abcdef';
    const port = await freePort();
    const receiverUrl = `http://127.0.0.1:${port}/herald/webhook`;
    const receiver = await startNodeReceiver(
      filled(await shown('webhooks', 'webhook-receiver', 'node'), [[GUIDE_PLACEHOLDERS.appKey, appKey]]),
      port,
    );
    try {
      // The curl tab plays Herald.
      const curl = filled(await shown('webhooks', 'webhook-receiver', 'curl'), [
        [GUIDE_PLACEHOLDERS.appKey, appKey],
        ['http://localhost:3000', `http://127.0.0.1:${port}`],
      ]);
      assert.equal(await runSample('curl', curl), 'ok');
      await waitFor('the test push verified', () =>
        /verified deliver ann@dest\.test/.test(receiver.output()),
      );
      const forged = curl.replace(`APP_KEY='${appKey}'`, "APP_KEY='not-the-key'");
      assert.notEqual(forged, curl);
      assert.equal(await runSample('curl', `${forged} -o /dev/null -w '%{http_code}'`), '403');

      // Herald's own pushes: the webhook as the console saves it, with its app key. Saving
      // probes the URL with a signed sample, which the receiver only answers 200 if it verifies.
      await h.t.core.webhooks.create(
        { accountId: h.sender.accountId },
        { url: receiverUrl, events: ['deliver'], apiUserId: h.sender.apiUserId, appKey },
      );
      h.t.core.webhookDispatcher.start();
      const answer = await postForm(base, 'mail/send', {
        apiUser: h.sender.apiUser,
        apiKey: h.sender.apiKey,
        from: `news@${h.sender.domain}`,
        to: 'carol@dest.test',
        subject: 'Webhook guide',
        html: '<p>hi</p>',
      });
      const emailId = answer.info.emailIdList?.[0] ?? '';
      await waitFor('the deliver push verified by the receiver sample', () =>
        receiver.output().includes(`verified deliver carol@dest.test ${emailId}`),
      );
    } finally {
      await h.t.core.webhookDispatcher.stop();
      receiver.stop();
    }
  });

  it('tracking: the sample turns tracking on for one mail, and openandclick/list reads the click', async () => {
    h.mx.clear();
    const output = await runSample('curl', filled(await shown('tracking', 'tracking-send', 'curl')));
    assert.match(output, /"statusCode":\s*200/, output);
    const [mail] = await h.mx.waitForMessages(1);
    const body = decodedBody(mail?.raw ?? '');
    assert.match(body, new RegExp(`<img[^>]+src="${PUBLIC_URL}/t/o/`), 'the open pixel');
    const click = linksIn(mail?.raw ?? '').find((link) => link.startsWith(`${PUBLIC_URL}/t/c/`));
    assert.ok(click, 'the link goes through the click redirect');
    assert.ok(!body.includes('href="https://shop.example.com/spring"'), 'the original link is replaced');
    const hit = await h.t.app.inject({ method: 'GET', url: click.slice(PUBLIC_URL.length) });
    assert.equal(hit.statusCode, 302);
    assert.equal(hit.headers.location, 'https://shop.example.com/spring');

    const list = await waitFor('the click listed', async () => {
      const out = await runSample('node', filled(await shown('tracking', 'openandclick-list', 'node')));
      return out.includes('https://shop.example.com/spring') ? out : undefined;
    });
    assert.match(list, /"statusCode":200/);
    assert.match(list, /"email":"ann@dest\.test"/);
  });

  it('suppression: the curl and Node samples add unsubscribes that unsubscribe/list then shows', async () => {
    for (const language of ['curl', 'node'] as const) {
      const output = await runSample(
        language,
        filled(await shown('suppression', 'unsubscribe-add', language)),
      );
      assert.match(output, /"statusCode":\s*200/, output);
    }
    const listed = await postForm(base, 'unsubscribe/list', {
      apiUser: h.sender.apiUser,
      apiKey: h.sender.apiKey,
      days: '1',
    });
    const emails = (listed.info.dataList as { email: string }[]).map((row) => row.email).sort();
    assert.deepEqual(emails, ['ann@dest.test', 'bob@dest.test']);
  });

  it('error-codes: the sample answers 40005, and the generated table names it as the answer does', async () => {
    for (const language of ['curl', 'node'] as const) {
      const output = await runSample(
        language,
        filled(await shown('error-codes', 'error-answer', language, 'zh-cn')),
      );
      const answer = JSON.parse(output) as { result: boolean; statusCode: number; message: string };
      assert.equal(answer.result, false);
      assert.equal(answer.statusCode, 40005);
      const table = await page('/docs/guides/error-codes?lang=zh-cn');
      const row = /<tr data-status="40005"><td>40005<\/td><td>([^<]*)<\/td>/.exec(table);
      assert.equal(unescapeHtml(row?.[1] ?? ''), answer.message);
    }
    const en = await page('/docs/guides/error-codes?lang=en');
    assert.match(en, /<tr data-status="40005"><td>40005<\/td><td>[A-Za-z]/);
  });
});

type Runnable = 'curl' | 'node' | 'python';

let python: Promise<boolean> | undefined;
/** Python samples run too where python3 is installed (the curl and Node ones always run). */
function hasPython(): Promise<boolean> {
  python ??= run('python3', ['--version']).then(
    () => true,
    () => false,
  );
  return python;
}

function unescapeHtml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs the receiver sample as its own process on `port`; resolves once it accepts connections. */
async function startNodeReceiver(code: string, port: number) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'herald-receiver-'));
  const file = path.join(dir, 'receiver.mjs');
  await fs.writeFile(file, code);
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [file], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  await waitFor(
    'the receiver sample to listen',
    () =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      }),
  );
  return {
    output: () => output,
    stop() {
      child.kill();
      void fs.rm(dir, { recursive: true, force: true });
    },
  };
}
