/**
 * Who a core call acts for. Every service method takes it first; repositories take its accountId
 * first. The adapter that received the call builds it once: a console route from the session
 * (`http/context.ts`), the HTTP API and SMTP from the API_USER's key (`ApiUserAuth`), a worker or
 * another service as `{ accountId }` when it acts for the account itself.
 *
 * A method that needs more than the account says so with one of the narrower names below, so a
 * route that cannot supply the user, session or key does not compile.
 */
export interface Caller {
  /** The account every read and write is scoped to. */
  readonly accountId: number;
  /** The console user making the call. */
  readonly userId?: number;
  /** The hash of that user's session token, for calls that act on the session itself. */
  readonly sessionHash?: string;
  /** The API_USER whose key made the call (HTTP API v2 or SMTP AUTH). */
  readonly apiUser?: ApiUserRef;
}

/** A console user's call. */
export interface UserCaller extends Caller {
  readonly userId: number;
}

/** A console call that marks or asks about its own session (sensitive-operation verification). */
export interface SessionCaller extends UserCaller {
  readonly sessionHash: string;
}

/** A call made with an API_USER's key. */
export interface KeyCaller extends Caller {
  readonly apiUser: ApiUserRef;
}

/** The API_USER a client authenticated as, with what decides how its mail is sent and counted. */
export interface ApiUserRef {
  readonly id: number;
  readonly name: string;
  readonly emailType: 'trigger' | 'batch';
  readonly cType: 'normal' | 'test';
  /** The sending domain the API_USER is bound to, if any. */
  readonly domainId: number | null;
}
