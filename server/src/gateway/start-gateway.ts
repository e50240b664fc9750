/// <reference path="../../../types/smpp.d.ts" />
import net, { type AddressInfo } from 'node:net';
import smpp from 'smpp';
import type { Core } from '../compose.ts';
import { type CmppPart, CmppSession } from './cmpp-session.ts';
import { DEFAULT_TIMERS, type GatewayDeps, type SessionTimers } from './gateway-deps.ts';
import { MsgIds } from './msg-ids.ts';
import { ReceiptPump, type ReceiptPumpOptions } from './receipt-pump.ts';
import { type SmppPart, SmppSession } from './smpp-session.ts';
import { type Part, SubmitParts } from './submit-parts.ts';
import { UserLimits } from './user-limits.ts';

export interface GatewayOptions {
  host: string;
  /** undefined: no CMPP listener; 0: a free port. */
  cmppPort: number | undefined;
  smppPort: number | undefined;
  timers?: Partial<SessionTimers>;
  pump?: ReceiptPumpOptions;
}

export interface RunningGateway {
  cmppPort: number | undefined;
  smppPort: number | undefined;
  close(): Promise<void>;
}

/**
 * The gateway for customers' own systems (issue 17): a CMPP 2.0/3.0 listener and an SMPP 3.4
 * listener in front of the core, as an operator's gateway would be, and the pump that carries
 * reports and replies back. Both protocols share the users' windows and rates, the Msg_Id
 * counter and the pump; long submits wait for their other parts per protocol, across a user's
 * connections (a part may come on a new connection after a drop).
 */
export async function startGateway(
  core: Pick<Core, 'smsGatewayUsers' | 'smsGateway' | 'logger'>,
  options: GatewayOptions,
): Promise<RunningGateway> {
  const logger = core.logger.child({ component: 'gateway' });
  const timers: SessionTimers = { ...DEFAULT_TIMERS, ...options.timers };
  const pump = new ReceiptPump(core.smsGateway, logger, options.pump);
  const deps: GatewayDeps = {
    users: core.smsGatewayUsers,
    gateway: core.smsGateway,
    pump,
    limits: new UserLimits(),
    msgIds: new MsgIds(),
    logger,
  };
  const cmppParts = new SubmitParts<CmppPart>(
    (_key, parts) => void owedAfterExpiry(deps, parts, (p) => p.phones),
  );
  const smppParts = new SubmitParts<SmppPart>(
    (_key, parts) => void owedAfterExpiry(deps, parts, (p) => [p.phone]),
  );

  const cmppSessions = new Set<CmppSession>();
  const smppSessions = new Set<SmppSession>();
  let cmpp: net.Server | undefined;
  let smppServer: net.Server | undefined;
  try {
    if (options.cmppPort !== undefined) {
      cmpp = net.createServer((socket) => {
        const session = new CmppSession(socket, deps, cmppParts, timers);
        cmppSessions.add(session);
        socket.once('close', () => cmppSessions.delete(session));
      });
      await listen(cmpp, options.cmppPort, options.host);
    }
    if (options.smppPort !== undefined) {
      smppServer = smpp.createServer({}, (session) => {
        const gatewaySession = new SmppSession(session, deps, smppParts, timers);
        smppSessions.add(gatewaySession);
        session.socket.once('close', () => smppSessions.delete(gatewaySession));
      });
      await listen(smppServer, options.smppPort, options.host);
    }
  } catch (error) {
    cmpp?.close();
    smppServer?.close();
    throw error;
  }
  pump.start();
  const portOf = (server: net.Server | undefined) =>
    server ? (server.address() as AddressInfo).port : undefined;
  return {
    cmppPort: portOf(cmpp),
    smppPort: portOf(smppServer),
    async close() {
      const closing = [cmpp, smppServer].map(
        (server) => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
      );
      for (const session of cmppSessions) session.end();
      for (const session of smppSessions) session.end();
      await Promise.all(closing);
      cmppParts.close();
      smppParts.close();
      await pump.close();
    },
  };
}

/** Parts of a long text that never completed were answered as taken: their reports say REJECTD. */
async function owedAfterExpiry<T extends { login: CmppPart['login']; srcId: string; wantsReport: boolean }>(
  deps: GatewayDeps,
  parts: Part<T>[],
  phonesOf: (body: T) => string[],
): Promise<void> {
  const first = parts[0]?.body;
  if (!first?.wantsReport) return;
  const phones = phonesOf(first);
  const owed = parts.flatMap((part) => part.msgIds.map((msgId, i) => ({ msgId, phone: phones[i] ?? '' })));
  await deps.gateway.owe(first.login, owed, first.srcId, 'REJECTD').catch((error: unknown) => {
    deps.logger.error({ err: error }, 'gateway: reports of an incomplete long text not kept');
  });
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
