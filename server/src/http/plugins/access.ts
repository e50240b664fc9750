import { API_CREDENTIALS, AppError, PLATFORM_OPERATOR, PUBLIC, type RouteAccess } from '@herald/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route: PUBLIC, AUTHENTICATED or a permission code (console-spec §6). */
    access?: RouteAccess;
    /** The route hands out data (an export, a file): view-only callers may not call it. */
    download?: boolean;
    /** A POST that only reads (a query with a body, like the queue list): view-only callers may call it. */
    viewing?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Who is calling: resolved from the session by the Authenticator. */
export interface Principal {
  accountId: number;
  userId: number;
  permissions: ReadonlySet<number>;
  /** Codes held for viewing only: changing and downloading under them answer AUTH_READ_ONLY. */
  readOnly?: ReadonlySet<number>;
  /** A visitor: view only, and no downloads even on routes without a code. */
  viewOnly?: boolean;
  /** A user of the platform's own account (accounts.kind = 'platform'). */
  platformOperator?: boolean;
}

export type Authenticator = (request: FastifyRequest) => Promise<Principal | null>;

export interface RouteEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
}

/** Paths whose routes must each say who may call them. */
const GUARDED_PREFIXES = ['/v3', '/apiv2'];

/**
 * The permission guard. Every route under a guarded prefix must declare `config.access`; a route
 * that forgets is refused at start-up, so a missing permission code is a boot failure, not an
 * open door. The table of routes is kept for the drift test and for operators.
 */
export function registerAccess(app: FastifyInstance, authenticate: Authenticator, table: RouteEntry[]): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    const access = route.config?.access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) table.push({ method, url: route.url, access });
    if (access === undefined && GUARDED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
      throw new Error(`route ${methods.join(',')} ${route.url} declares no access (config.access)`);
    }
  });
  app.addHook('preHandler', async (request) => {
    const access = request.routeOptions.config.access;
    // /apiv2 routes authenticate the API_USER themselves (server/src/http/apiv2/apiv2-auth.ts).
    if (access === undefined || access === PUBLIC || access === API_CREDENTIALS) return;
    request.principal = await authenticate(request);
    if (!request.principal) throw new AppError('AUTH_REQUIRED');
    if (access === PLATFORM_OPERATOR && request.principal.platformOperator !== true) {
      throw new AppError('AUTH_PERMISSION_DENIED');
    }
    if (typeof access === 'number' && !request.principal.permissions.has(access)) {
      throw new AppError('AUTH_PERMISSION_DENIED');
    }
    if (isViewOnlyCall(request, access, request.principal)) throw new AppError('AUTH_READ_ONLY');
  });
}

const VIEWING_METHODS = new Set(['GET', 'HEAD']);

/**
 * A call that changes something (any method but GET and HEAD) or downloads, made by someone who
 * may only view it: a teammate holding the route's code at read, or a visitor. Routes without a
 * code (the caller's own profile and security) stay open to visitors except for downloads.
 */
function isViewOnlyCall(request: FastifyRequest, access: RouteAccess, principal: Principal): boolean {
  const download = request.routeOptions.config.download === true;
  const reads = VIEWING_METHODS.has(request.method) || request.routeOptions.config.viewing === true;
  if (!download && reads) return false;
  if (typeof access === 'number')
    return principal.readOnly?.has(access) === true || principal.viewOnly === true;
  return download && principal.viewOnly === true;
}
