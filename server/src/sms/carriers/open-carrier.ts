import { SMS_CARRIER_MAX_CONNECTIONS, smsCarrierConnections } from '@herald/shared';
import type { Logger } from '../../logger.ts';
import type { MobileOriginated, OpenCarrier } from '../ports.ts';
import { CmppConnector } from './cmpp.ts';
import type { CmppVersion } from './cmpp-codec.ts';
import { MoAssembler } from './cmpp-content.ts';
import { connectionSet } from './connection-set.ts';
import { Mm7Connector, mm7Settings } from './mm7.ts';
import { SipVoiceConnector } from './sip-voice.ts';
import { SmppConnector } from './smpp.ts';
import { MessageIdBook } from './smpp-receipt.ts';

/**
 * A carrier connection as configured: its URL's scheme names the protocol, and the URL's query
 * carries what differs between carriers of one protocol.
 *
 *   smpp://host:port?window=10&perSecond=50&concatenation=sar
 *   cmpp://host:port?version=3.0&serviceId=HERALD&srcId=1069001&window=16&perSecond=50
 *
 * Both: `window` (unanswered submits at once; SMPP 10, CMPP 16 by default) and `perSecond` (the
 * contract's throughput per connection; unlimited by default), `connections` (how many connections
 * to open under the one account, 1 to 16, default 1; submits go to the least busy, each
 * connection with its own window and rate, so the carrier's limits apply per connection as its
 * contract says; see connection-set.ts). SMPP: `concatenation=sar` sends
 * long texts with the sar_* TLVs instead of a UDH. CMPP: `version` 2.0 or 3.0 (default 3.0),
 * `serviceId` (Service_Id) and `srcId` (the SP's service code, Src_Id); systemId is the SP id
 * (Source_Addr) and password the shared secret.
 *
 *   mm7://host:port/path?vaspId=901234&vasId=1069001&serviceCode=HERALD&version=5.3.0&reportPort=8021
 *
 * MM7 (MMS only; mm7s:// for HTTPS): `vaspId`, `vasId`, `serviceCode` as the carrier assigned
 * them, `version` (5.3.0 by default; `namespace` for a schema Herald does not know), `window`
 * (default 8), `timeout` (seconds per request, default 30) and `reportPort` / `reportHost` where
 * the relay's delivery reports arrive (see mm7.ts); systemId and password are the HTTP Basic
 * credentials.
 *
 *   sip://host:port?from=4008001234&window=10&ringSeconds=45&transport=tcp
 *
 * SIP (voice codes, read out in a phone call; see sip-voice.ts): `transport` udp (the default) or
 * tcp, `from` the calling number the trunk shows (the submit's sender when absent), `window` calls
 * in progress at once (default 10), `ringSeconds` before an unanswered call is cancelled (default
 * 45); systemId and password answer the trunk's digest challenges.
 */
export interface CarrierSettings {
  /** smpp://host:port or cmpp://host:port, with the query above. */
  url: string;
  systemId: string;
  password: string;
  /** Throughput per connection; overrides the URL's `perSecond` when above 0. */
  perSecond?: number;
  /** Replies from handsets (SMPP deliver_sm, CMPP DELIVER). */
  onMo?: (message: MobileOriginated) => void;
}

/** The carrier of these settings; a new protocol is one more file here and one more case. */
export function carrierOpener(settings: CarrierSettings, logger: Logger): OpenCarrier {
  const url = new URL(settings.url);
  const query = url.searchParams;
  const window = positive(query, 'window');
  const perSecond =
    settings.perSecond && settings.perSecond > 0 ? settings.perSecond : positive(query, 'perSecond');
  const connections = smsCarrierConnections(url);
  if (connections === undefined) {
    const raw = query.get('connections');
    throw new Error(`carrier URL: connections must be 1 to ${SMS_CARRIER_MAX_CONNECTIONS}, not ${raw}`);
  }
  switch (url.protocol) {
    case 'smpp:': {
      const concatenation = query.get('concatenation') ?? 'udh';
      if (concatenation !== 'udh' && concatenation !== 'sar')
        throw new Error(`SMPP concatenation must be udh or sar, not ${concatenation}`);
      return (onReceipt) => {
        const ids = new MessageIdBook();
        return connectionSet(
          connections,
          () =>
            new SmppConnector({
              url: settings.url,
              systemId: settings.systemId,
              password: settings.password,
              logger: logger.child({ carrier: 'smpp' }),
              onReceipt,
              windowSize: window,
              submitsPerSecond: perSecond,
              concatenation,
              onMo: settings.onMo,
              ids,
            }),
        );
      };
    }
    case 'cmpp:': {
      const version = query.get('version') ?? '3.0';
      if (version !== '2.0' && version !== '3.0')
        throw new Error(`CMPP version must be 2.0 or 3.0, not ${version}`);
      return (onReceipt) => {
        const onMo = settings.onMo;
        const moAssembler =
          onMo && new MoAssembler((from, to, text) => onMo({ from, to, text, receivedAt: new Date() }));
        return connectionSet(
          connections,
          () =>
            new CmppConnector({
              url: settings.url,
              version: version as CmppVersion,
              spId: settings.systemId,
              secret: settings.password,
              serviceId: query.get('serviceId') ?? undefined,
              srcId: query.get('srcId') ?? undefined,
              logger: logger.child({ carrier: 'cmpp' }),
              onReceipt,
              onMo,
              moAssembler,
              windowSize: window,
              submitsPerSecond: perSecond,
            }),
        );
      };
    }
    case 'mm7:':
    case 'mm7s:': {
      const mm7 = mm7Settings(url);
      return (onReceipt) =>
        new Mm7Connector({
          ...mm7,
          url: settings.url,
          systemId: settings.systemId,
          password: settings.password,
          logger: logger.child({ carrier: 'mm7' }),
          onReceipt,
          windowSize: window,
          submitsPerSecond: perSecond,
        });
    }
    case 'sip:': {
      const ringSeconds = positive(query, 'ringSeconds');
      const transport = (query.get('transport') || 'udp').toLowerCase();
      if (transport !== 'udp' && transport !== 'tcp')
        throw new Error(`SIP transport must be udp or tcp, not ${query.get('transport')}`);
      return (onReceipt) =>
        new SipVoiceConnector({
          url: settings.url,
          transport: transport === 'tcp' ? 'TCP' : 'UDP',
          username: settings.systemId,
          password: settings.password,
          caller: query.get('from') || undefined,
          logger: logger.child({ carrier: 'sip' }),
          onReceipt,
          windowSize: window,
          callsPerSecond: perSecond,
          ringMs: ringSeconds && ringSeconds * 1000,
        });
    }
    default:
      throw new Error(`no SMS carrier speaks ${url.protocol}//`);
  }
}

function positive(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`carrier URL: ${name} must be a positive number, not ${raw}`);
  return value;
}
