import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { createSender, type Sender } from '../fixtures/factory.ts';
import { buildTestApp, type TestApp } from '../helpers/app.ts';
import { bearer, createOwner, type SignedIn } from '../helpers/members.ts';

/**
 * Tenant isolation over the whole route table. Account A owns one of everything the API can
 * create (domain, API_USER, label, template, unsubscribe entries, sent mail…), with a marker in
 * its content that no call ever sends. Account B, a signed-in owner with every permission and a
 * valid API_USER, then calls every console and /apiv2 route with A's ids and names: in the path,
 * and in every id- or name-like field. Afterwards:
 * - a route that takes an object id in its path never answers 2xx for A's object (an id that
 *   B's own objects also use is not counted: the route may well mean B's);
 * - no answer contains A's content marker or A's API key, nor, to a call that named nothing of
 *   A's by name, any of A's names;
 * - every row of A, in every table that has an account, is unchanged.
 */

const CONTENT = 'zq7tenantAsecret';

/** Valid values for the other fields of a change, so a call gets past validation to the object. */
const PLAUSIBLE = {
  name: 'b_probe',
  labelName: 'b_probe',
  newName: 'b_probe',
  subject: 'probe',
  html: '<p>probe</p>',
  templateType: '0',
  status: '1',
  email: 'probe@example.org',
  remark: 'probe',
  description: 'probe',
};

interface Probe {
  label: string;
  url: string;
  payload?: Record<string, unknown>;
  query?: Record<string, string>;
  /** A's object id in the path: a 2xx is a breach (unless B has an object with that id). */
  pathId?: number;
  /** The call names none of A's objects by name, so none may come back in the answer. */
  namesNothing?: boolean;
}

describe('tenant isolation over the route table', () => {
  let t: TestApp;
  let a: SignedIn;
  let b: SignedIn;
  let senderA: Sender;
  let senderB: Sender;
  before(async () => {
    t = await buildTestApp();
    b = await createOwner(t, 'iso_bob');
    senderB = await createSender(t.core.database, { accountId: b.ctx.accountId });
    await spreadIds();
    a = await createOwner(t, 'iso_alice');
    senderA = await createSender(t.core.database, { accountId: a.ctx.accountId });
    const asA = async (action: string, fields: Record<string, string>) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/apiv2/${action}`,
        payload: new URLSearchParams({
          apiUser: senderA.apiUser,
          apiKey: senderA.apiKey,
          ...fields,
        }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(res.json().result, true, `${action}: ${res.body}`);
    };
    await asA('label/add', { labelName: 'isoa_label' });
    await asA('template/add', {
      invokeName: 'isoa_template',
      name: 'isoa_template',
      templateType: '0',
      subject: `Subject ${CONTENT}`,
      html: `<p>${CONTENT}</p>`,
    });
    await asA('unsubscribe/add', { email: 'gone@isoa.example.org' });
    await asA('domain/add', { name: 'isoa.example.test' });
    await asA('mail/send', {
      from: `news@${senderA.domain}`,
      to: 'reader1@isoa.example.org;reader2@isoa.example.org',
      subject: `Mail ${CONTENT}`,
      html: `<p>${CONTENT}</p>`,
    });
  });
  after(() => t?.close());

  /**
   * Starts every table's ids in a range of its own (a million apart), so each id A gets names one
   * row of one table, and none is also the id of something of B's.
   */
  async function spreadIds(): Promise<void> {
    const { db, dialect } = t.core.database;
    const tables = (await db.introspection.getTables()).filter((table) =>
      table.columns.some((c) => c.name === 'id' && c.isAutoIncrementing),
    );
    for (const [i, table] of tables.entries()) {
      const start = (i + 1) * 1_000_000;
      if (dialect === 'postgres') {
        await sql`ALTER TABLE ${sql.table(table.name)} ALTER COLUMN id RESTART WITH ${sql.lit(start)}`.execute(
          db,
        );
      } else {
        const updated =
          await sql`UPDATE sqlite_sequence SET seq = ${start} WHERE name = ${table.name}`.execute(db);
        if (Number(updated.numAffectedRows ?? 0) === 0)
          await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table.name}, ${start})`.execute(db);
      }
    }
  }

  /** Every row of every table with an account_id column that belongs to `accountId`, as JSON. */
  async function rowsOf(accountId: number): Promise<Map<string, string>> {
    const tables = await t.core.database.db.introspection.getTables();
    const rows = new Map<string, string>();
    for (const table of tables) {
      if (!table.columns.some((c) => c.name === 'account_id')) continue;
      const found = await t.core.database.db
        .selectFrom(table.name as 'labels')
        .selectAll()
        .where('account_id', '=', accountId)
        .execute();
      found.forEach((row, i) => {
        rows.set(`${table.name}#${(row as { id?: unknown }).id ?? i}`, JSON.stringify(row));
      });
    }
    return rows;
  }

  it('gives another account nothing of A: not found, no data, nothing changed', {
    timeout: 600_000,
  }, async () => {
    const before = await rowsOf(a.ctx.accountId);
    const idsOf = (rows: Map<string, string>) =>
      new Set(
        [...rows.keys()]
          .map((key) => Number(key.split('#')[1]))
          .filter((id) => Number.isInteger(id) && id > 0),
      );
    const idsA = [...idsOf(before)];
    const idsB = idsOf(await rowsOf(b.ctx.accountId));
    const emailIds = (
      await t.core.database.db
        .selectFrom('message_recipients')
        .select('email_id')
        .where('account_id', '=', a.ctx.accountId)
        .execute()
    ).map((r) => String(r.email_id));
    const names = [
      'isoa_label',
      'isoa_template',
      'isoa.example.test',
      senderA.apiUser,
      senderA.domain,
      ...emailIds,
    ];
    const A_NAMES = [
      'isoa_label',
      'isoa_template',
      'isoa.example.test',
      '@isoa.example.org',
      senderA.domain,
      senderA.apiUser,
    ];
    assert.ok(idsA.length >= 8, `A owns ${idsA.length} rows with ids: ${[...before.keys()].join(', ')}`);

    const routes = t.routes.filter(
      (r) =>
        (r.url.startsWith('/v3/api') || r.url.startsWith('/apiv2')) &&
        !['HEAD', 'OPTIONS'].includes(r.method) &&
        r.url !== '/v3/api/loginOut',
    );
    const breaches: string[] = [];
    let calls = 0;
    let pathCalls = 0;
    // Calls that name nothing of A's come first: the calls with A's names may give B's own
    // objects those names (B renaming its label "isoa_label" is no breach), which later answers
    // to B would then show.
    for (const pass of ['ids', 'names'] as const)
      for (const route of routes) {
        const api = route.url.startsWith('/apiv2');
        const params = route.url.match(/:[A-Za-z]+/g) ?? [];
        const probes: Probe[] = [];
        if (params.length > 0) {
          for (const id of idsA) {
            probes.push({
              label: `id ${id} in the path`,
              url: route.url.replace(/:[A-Za-z]+/g, String(id)),
              payload: PLAUSIBLE,
              pathId: id,
              namesNothing: true,
            });
          }
          for (const name of names) {
            probes.push({
              label: `${name} in the path`,
              url: route.url.replace(/:[A-Za-z]+/g, encodeURIComponent(name)),
            });
          }
        } else {
          for (const id of idsA) {
            const value = String(id);
            const fields = {
              ...PLAUSIBLE,
              id: value,
              ids: value,
              labelId: value,
              domainId: value,
              templateId: value,
              apiUserId: value,
              webhookId: value,
              pageId: value,
              queueId: value,
              memberId: value,
              userId: value,
            };
            probes.push({
              label: `id ${id} in the fields`,
              url: route.url,
              payload: fields,
              query: fields,
              namesNothing: true,
            });
          }
          const named = {
            name: 'isoa_label',
            labelName: 'isoa_label',
            invokeName: 'isoa_template',
            templateInvokeName: 'isoa_template',
            domain: 'isoa.example.test',
            domainName: senderA.domain,
            apiUserList: senderA.apiUser,
            emailId: emailIds[0] ?? '',
            emailIds: emailIds.join(';'),
            email: 'gone@isoa.example.org',
          };
          probes.push({ label: 'names in the fields', url: route.url, payload: named, query: named });
        }
        const session = api ? null : await t.core.sessions.create(b.ctx);
        for (const probe of probes.filter((p) => (pass === 'ids') === (p.namesNothing === true))) {
          const credentials: Record<string, string> = api
            ? { apiUser: senderB.apiUser, apiKey: senderB.apiKey }
            : {};
          const withBody = route.method !== 'GET' && route.method !== 'DELETE';
          const res = await t.app.inject({
            method: route.method as InjectOptions['method'],
            url: probe.url,
            query: { ...(withBody ? {} : probe.query), ...(api && !withBody ? credentials : {}) },
            ...(withBody ? { payload: { ...probe.payload, ...credentials } } : {}),
            headers: session ? bearer(session) : {},
          });
          calls += 1;
          const where = `${route.method} ${route.url} with ${probe.label}`;
          if (res.body.includes(CONTENT) || res.body.includes(senderA.apiKey))
            breaches.push(`${where}: A's data in the answer`);
          const named = probe.namesNothing ? A_NAMES.find((name) => res.body.includes(name)) : undefined;
          if (named) breaches.push(`${where}: A's ${named} in the answer`);
          if (probe.pathId !== undefined && !idsB.has(probe.pathId)) {
            pathCalls += 1;
            const envelope =
              api && res.headers['content-type']?.toString().includes('json') ? res.json() : null;
            const accepted = api ? envelope?.result === true : res.statusCode >= 200 && res.statusCode < 300;
            if (accepted) breaches.push(`${where}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
    const afterwards = await rowsOf(a.ctx.accountId);
    for (const [key, row] of before) {
      if (afterwards.get(key) !== row)
        breaches.push(`A's ${key} changed: ${row} → ${afterwards.get(key) ?? 'gone'}`);
    }
    for (const key of afterwards.keys()) if (!before.has(key)) breaches.push(`A gained ${key}`);
    process.stderr.write(
      `tenant isolation: ${routes.length} routes, ${calls} calls, ${pathCalls} with A's id in the path\n`,
    );
    assert.deepEqual(breaches, []);
  });
});
