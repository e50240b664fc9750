import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Logger } from '../../logger.ts';
import type { MailEventsService } from '../mail-events/mail-events.service.ts';
import { EmailTracksService } from './email-tracks.service.ts';
import { SslCertificatesService } from './ssl-certificates.service.ts';
import { TrackingService } from './tracking.service.ts';
import { TrackingDomainsService } from './tracking-domains.service.ts';

/** The tracking services as the core holds them. */
export interface Tracking {
  /** Open and click hits from the public pixel and redirect. */
  tracking: TrackingService;
  /** Custom tracking domains (`/trackDomains`). */
  trackingDomains: TrackingDomainsService;
  /** Their HTTPS certificates (`/config/ssl`) and the SNI contexts of the tracking listener. */
  sslCertificates: SslCertificatesService;
  /** The open/click list (`/data/emailTracks`, `openandclick/list`). */
  emailTracks: EmailTracksService;
}

export function createTracking(deps: {
  database: Database;
  config: Config;
  logger: Logger;
  secretBox: SecretBox;
  secretKey: Buffer;
  mailEvents: MailEventsService;
}): Tracking {
  const { database, config, logger } = deps;
  let certificates: SslCertificatesService | undefined;
  const trackingDomains = new TrackingDomainsService({
    database,
    cnameTarget: config.tracking.cnameTarget,
    reserved: config.sendingDomains.reserved,
    dnsServers: config.dnsServers,
    onRemoved: (name) => certificates?.forget(name),
  });
  certificates = new SslCertificatesService({
    database,
    secretBox: deps.secretBox,
    domains: trackingDomains,
    logger,
  });
  return {
    tracking: new TrackingService({
      database,
      mailEvents: deps.mailEvents,
      secretKey: deps.secretKey,
      logger,
    }),
    trackingDomains,
    sslCertificates: certificates,
    emailTracks: new EmailTracksService(database),
  };
}
