import type { Herald, SmppCarrier } from '@herald/test-peers';
import { SmsCarriersService } from '../../server/src/core/sms-carriers/sms-carriers.service.ts';
import { loadSecretKey, SecretBox } from '../../server/src/lib/secret-box.ts';
import { withHeraldDatabase } from './database.ts';

/**
 * The SMS set-up only the platform operator does, from the CLI (`sms:carrier`, `sms:route`):
 * written through the server's own service into a running Herald's database, the password sealed
 * with that Herald's secret key, so its SMS channel connects to the loopback carrier.
 */

/** The secret box of a running Herald (its key file in the data directory). */
export function heraldSecretBox(herald: Herald): SecretBox {
  return new SecretBox(loadSecretKey({ dataDir: herald.dataDir, secretKey: undefined }));
}

export interface SmsCarrierSetup {
  /** The carrier's name in Herald; default `peer`. */
  name?: string;
  /** The loopback carrier's account Herald binds with; default herald / secret. */
  systemId?: string;
  password?: string;
  sourceAddr?: string;
  /** The country routed to it; default CN. */
  country?: string;
}

/** The loopback SMPP `carrier` as a carrier of `herald` with a route for one country. */
export async function writeSmsCarrier(
  herald: Herald,
  carrier: SmppCarrier,
  setup: SmsCarrierSetup = {},
): Promise<void> {
  const name = setup.name ?? 'peer';
  await withHeraldDatabase(herald, async (database) => {
    const carriers = new SmsCarriersService(database, heraldSecretBox(herald));
    await carriers.save({
      name,
      url: `smpp://127.0.0.1:${carrier.port}`,
      systemId: setup.systemId ?? 'herald',
      password: setup.password ?? 'secret',
      ...(setup.sourceAddr ? { sourceAddr: setup.sourceAddr } : {}),
    });
    await carriers.addRoute({ carrier: name, country: setup.country ?? 'CN' });
  });
}
