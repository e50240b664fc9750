import type { Logger } from '../../logger.ts';
import type { OpenCarrier } from '../ports.ts';
import { SmppConnector } from './smpp.ts';

/** A carrier connection as configured: its URL's scheme names the protocol. */
export interface CarrierSettings {
  /** smpp://host:port */
  url: string;
  systemId: string;
  password: string;
}

/** The carrier of these settings; a new protocol is one more file here and one more case. */
export function carrierOpener(settings: CarrierSettings, logger: Logger): OpenCarrier {
  const scheme = new URL(settings.url).protocol;
  switch (scheme) {
    case 'smpp:':
      return (onReceipt) =>
        new SmppConnector({ ...settings, logger: logger.child({ carrier: 'smpp' }), onReceipt });
    default:
      throw new Error(`no SMS carrier speaks ${scheme}//`);
  }
}
