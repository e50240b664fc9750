import type { Logger } from '../../logger.ts';
import type { MobileOriginated, OpenCarrier } from '../ports.ts';
import { CmppConnector } from './cmpp.ts';
import type { CmppVersion } from './cmpp-codec.ts';
import { SmppConnector } from './smpp.ts';

/**
 * A carrier connection as configured: its URL's scheme names the protocol, and the URL's query
 * carries what differs between carriers of one protocol.
 *
 *   smpp://host:port?window=10&perSecond=50&concatenation=sar
 *   cmpp://host:port?version=3.0&serviceId=HERALD&srcId=1069001&window=16&perSecond=50
 *
 * Both: `window` (unanswered submits at once; SMPP 10, CMPP 16 by default) and `perSecond` (the
 * contract's throughput per connection; unlimited by default). SMPP: `concatenation=sar` sends
 * long texts with the sar_* TLVs instead of a UDH. CMPP: `version` 2.0 or 3.0 (default 3.0),
 * `serviceId` (Service_Id) and `srcId` (the SP's service code, Src_Id); systemId is the SP id
 * (Source_Addr) and password the shared secret.
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
  switch (url.protocol) {
    case 'smpp:': {
      const concatenation = query.get('concatenation') ?? 'udh';
      if (concatenation !== 'udh' && concatenation !== 'sar')
        throw new Error(`SMPP concatenation must be udh or sar, not ${concatenation}`);
      return (onReceipt) =>
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
        });
    }
    case 'cmpp:': {
      const version = query.get('version') ?? '3.0';
      if (version !== '2.0' && version !== '3.0')
        throw new Error(`CMPP version must be 2.0 or 3.0, not ${version}`);
      return (onReceipt) =>
        new CmppConnector({
          url: settings.url,
          version: version as CmppVersion,
          spId: settings.systemId,
          secret: settings.password,
          serviceId: query.get('serviceId') ?? undefined,
          srcId: query.get('srcId') ?? undefined,
          logger: logger.child({ carrier: 'cmpp' }),
          onReceipt,
          onMo: settings.onMo,
          windowSize: window,
          submitsPerSecond: perSecond,
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
