/**
 * `GET /healthz`: answered by every process outside the console API (no /v3/api base, no login),
 * so an orchestrator and the console's server-down screen probe it the same way.
 */
export interface HealthView {
  status: 'ok';
}
