import { AppError } from '@herald/shared';
import type { Core } from '../compose.ts';
import type { KeyCaller } from '../core/context.ts';

const CACHE_MS = 30_000;

/**
 * HERALD_SMTP_TRUSTED_NETWORKS + HERALD_SMTP_TRUSTED_API_USER: a relay on a trusted network (the
 * same host, a private subnet the operator controls) submits without AUTH, as the named
 * API_USER, the way Postfix's mynetworks works. Meant for a local relay or a load tool such as
 * smtp-source, which cannot authenticate; every other client still needs AUTH.
 */
export class TrustedRelay {
  private readonly core: Core;
  private readonly apiUser: string;
  private cached: { caller: KeyCaller; until: number } | undefined;

  constructor(core: Core, settings: { apiUser: string }) {
    this.core = core;
    this.apiUser = settings.apiUser;
  }

  async caller(): Promise<KeyCaller> {
    const now = Date.now();
    if (this.cached && this.cached.until > now) return this.cached.caller;
    const caller = await this.core.send.reads.callerByName(this.apiUser);
    if (!caller) throw new AppError('API_AUTH_FAILED');
    this.cached = { caller, until: now + CACHE_MS };
    return caller;
  }
}
